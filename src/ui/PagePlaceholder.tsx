import { Box, Typography } from '@mui/material';
import { Title } from 'react-admin';

/** Stand-in for a page still to be built. */
export const PagePlaceholder = ({ title, text }: { title: string; text?: string }) => (
    <Box sx={{ p: 2 }}>
        <Title title={title} />
        <Typography variant="h4" component="h1" gutterBottom>
            {title}
        </Typography>
        {text && <Typography color="text.secondary">{text}</Typography>}
    </Box>
);
