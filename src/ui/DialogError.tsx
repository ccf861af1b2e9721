import { Alert } from '@mui/material';

/**
 * Why a dialog's save failed, inside the dialog above its buttons: a toast of the same text could cover those buttons
 * and sits apart from the form it is about.
 */
export const DialogError = ({ message }: { message: string | null }) =>
    message ? (
        <Alert severity="error" sx={{ mx: 3, mb: 1, overflowWrap: 'anywhere' }}>
            {message}
        </Alert>
    ) : null;
