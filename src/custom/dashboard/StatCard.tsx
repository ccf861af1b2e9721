import { Box, Card, CardContent, Typography } from '@mui/material';
import type { ReactNode } from 'react';

export interface StatCardProps {
    title: string;
    value: ReactNode;
    icon: ReactNode;
    color: string;
    caption?: string;
}

/** One dashboard figure: a title, a large value and an icon in the card's colour. */
export const StatCard = ({ title, value, icon, color, caption }: StatCardProps) => (
    <Card variant="outlined" sx={{ height: '100%' }}>
        <CardContent sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2 }}>
            <Box>
                <Typography color="text.secondary" gutterBottom>
                    {title}
                </Typography>
                <Typography variant="h4" component="p" aria-label={title}>
                    {value}
                </Typography>
                {caption && (
                    <Typography variant="caption" color="text.secondary">
                        {caption}
                    </Typography>
                )}
            </Box>
            <Box sx={{ color, display: 'flex', '& svg': { fontSize: 40 } }}>{icon}</Box>
        </CardContent>
    </Card>
);
