import { useEffect } from 'react';
import { useLogout } from 'react-admin';

import { LoadingScreen } from './LoadingScreen';

/** /logout: clears the session and goes to /login. */
export const LogoutPage = () => {
    const logout = useLogout();
    useEffect(() => {
        logout({}, '/login');
    }, [logout]);
    return <LoadingScreen />;
};
