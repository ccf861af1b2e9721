import { SnackbarProvider } from 'notistack';
import type { ReactNode } from 'react';

/** Toasts: at most 3 at once, bottom-left, auto-hidden after 5000 ms (spec §9). */
export const TOAST_SETTINGS = {
    maxSnack: 3,
    autoHideDuration: 5000,
    anchorOrigin: { vertical: 'bottom', horizontal: 'left' },
} as const;

export const ToastProvider = ({ children }: { children: ReactNode }) => (
    <SnackbarProvider {...TOAST_SETTINGS}>{children}</SnackbarProvider>
);
