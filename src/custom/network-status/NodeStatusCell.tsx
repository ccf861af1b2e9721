import { CircularProgress, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';

import type { NodeStatus } from '../../../common/entities';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { errorReason } from '../../ui/format';
import { REFRESH_MS } from './metricsQuery';

/** "1,204,331 · last block 4 s ago · 12 peers · synced": the server's node, beside its disk and memory. */
export function nodeStatusText(n: NodeStatus): string {
    const lag = n.block_lag_seconds === null ? 'no block yet' : `last block ${lagText(n.block_lag_seconds)} ago`;
    const peers = `${n.peers} ${n.peers === 1 ? 'peer' : 'peers'}`;
    return `Height ${n.height.toLocaleString('en-US')} · ${lag} · ${peers} · ${n.catching_up ? 'catching up' : 'synced'}`;
}

function lagText(s: number): string {
    if (s < 120) return `${s} s`;
    if (s < 7200) return `${Math.round(s / 60)} min`;
    return `${(s / 3600).toFixed(1)} h`;
}

export const NodeStatusCell = ({ serverId }: { serverId: number }) => {
    const dataProvider = useNodeMonitorDataProvider();
    const { data, isPending, error } = useQuery({
        queryKey: ['nodeMonitor', 'nodeStatus', String(serverId)],
        queryFn: () => dataProvider.getNodeStatus(serverId),
        refetchInterval: REFRESH_MS,
        retry: false,
    });
    if (isPending) return <CircularProgress size={16} aria-label="Loading node" />;
    if (error || !data)
        return (
            <Typography variant="body2" color="error">
                {errorReason(error)}
            </Typography>
        );
    return (
        <Typography variant="body2" color={data.catching_up ? 'warning.main' : undefined}>
            {nodeStatusText(data)}
        </Typography>
    );
};
