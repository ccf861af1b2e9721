import { CircularProgress, Typography } from '@mui/material';

import { formatUsage } from '../../../common/bytes';
import { errorReason } from '../../ui/format';

export interface UsageFigures {
    percent: number | null | undefined;
    used: number | null | undefined;
    total: number | null | undefined;
}

export interface MetricsCellProps {
    /** The figures, or undefined while loading or after a failure. */
    usage: UsageFigures | undefined;
    isPending: boolean;
    error: unknown;
}

/** One usage cell: `42% (1.00 GB / 2.00 GB)`, N/A when missing, or the reason this server's metrics failed. */
export const MetricsCell = ({ usage, isPending, error }: MetricsCellProps) => {
    if (error && !usage) {
        return (
            <Typography variant="body2" color="error">
                {errorReason(error)}
            </Typography>
        );
    }
    if (isPending) return <CircularProgress size={16} aria-label="Loading metrics" />;
    return <Typography variant="body2">{formatUsage(usage?.percent, usage?.used, usage?.total)}</Typography>;
};
