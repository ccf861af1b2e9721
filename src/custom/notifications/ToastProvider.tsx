import { GlobalStyles } from '@mui/material';
import { SnackbarProvider } from 'notistack';
import type { ReactNode } from 'react';

/** Toasts: at most 3 at once, bottom-left, auto-hidden after 5000 ms (docs/spec.md §9). */
export const TOAST_SETTINGS = {
    maxSnack: 3,
    autoHideDuration: 5000,
    anchorOrigin: { vertical: 'bottom', horizontal: 'left' },
} as const;

/**
 * A toast lets the pointer through to what it covers (a dialog's buttons) and so never holds its timer because it
 * appeared under a resting pointer; only its own buttons (Undo) take clicks.
 */
const passThrough = (
    <GlobalStyles
        styles={{
            '.notistack-SnackbarContainer, .notistack-SnackbarContainer *': { pointerEvents: 'none !important' },
            '.notistack-SnackbarContainer button': { pointerEvents: 'auto !important' },
        }}
    />
);

export const ToastProvider = ({ children }: { children: ReactNode }) => (
    <SnackbarProvider {...TOAST_SETTINGS}>
        {passThrough}
        {children}
    </SnackbarProvider>
);
