import { useEffect } from 'react';
import { useLogout } from 'react-admin';

import { LoadingScreen } from './LoadingScreen';

/**
 * /logout: clears the session and goes to /login, which must not lead back here after the next sign-in (react-admin
 * would otherwise remember /logout as the page to return to, and sign the user out again at once).
 */
export const LogoutPage = () => {
    const logout = useLogout();
    useEffect(() => {
        logout({}, '/login', false);
    }, [logout]);
    return <LoadingScreen />;
};
