import { Button } from '@mui/material';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, useNotify } from 'react-admin';

import { NotistackNotification } from '../../../src/custom/notifications/NotistackNotification';
import { ToastProvider } from '../../../src/custom/notifications/ToastProvider';

const Notifier = () => {
    const notify = useNotify();
    let count = 0;
    return (
        <Button
            onClick={() => {
                count += 1;
                notify(`Toast ${count}`, { type: count % 2 ? 'success' : 'error' });
            }}
        >
            Notify
        </Button>
    );
};

describe('toasts', () => {
    it('stacks react-admin notifications through notistack, at most 3 at once', async () => {
        const user = userEvent.setup();
        render(
            <ToastProvider>
                <AdminContext>
                    <NotistackNotification />
                    <Notifier />
                </AdminContext>
            </ToastProvider>
        );
        for (let i = 0; i < 5; i++) await user.click(screen.getByRole('button', { name: 'Notify' }));
        expect(await screen.findByText('Toast 1')).toBeInTheDocument();
        expect(screen.getByText('Toast 2')).toBeInTheDocument();
        expect(screen.getByText('Toast 3')).toBeInTheDocument();
        expect(screen.queryByText('Toast 4')).not.toBeInTheDocument();
    });
});
