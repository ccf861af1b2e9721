import { Box, CircularProgress, Typography } from '@mui/material';

/** Shown while a session exists but the current user is not loaded yet (docs/spec.md §2), and while a page loads. */
export const LoadingScreen = () => (
    <Box
        role="status"
        sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2, p: 4 }}
        minHeight="50vh"
    >
        <CircularProgress size={32} />
        <Typography>Loading...</Typography>
    </Box>
);
