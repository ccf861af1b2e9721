import { Box, Typography } from '@mui/material';
import { AppBar as RaAppBar, TitlePortal } from 'react-admin';

/** Top bar: the product name, then the current page's title. */
export const AppBar = () => (
    <RaAppBar>
        <Typography variant="h6" component="span" sx={{ whiteSpace: 'nowrap', mr: 2 }}>
            Node Monitor
        </Typography>
        <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', opacity: 0.8 }}>
            <TitlePortal variant="subtitle1" />
        </Box>
    </RaAppBar>
);
