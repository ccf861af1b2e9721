import { Box, Card, CardContent, CardHeader, Chip, LinearProgress, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';

import type { ProposalFigures, UpgradeFigures, ValidatorFigures } from '../../../common/validator-card';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { formatDateTime } from '../../ui/format';
import { SigningGrid } from './SigningGrid';
import { tokenAmount } from './tokenAmount';

/** "in 3.2 h", "in 12 min": how far ahead a time is, for deadlines and ETAs. */
export function timeLeft(iso: string | null, nowMs = Date.now()): string {
    if (!iso) return 'time unknown';
    const ms = Date.parse(iso) - nowMs;
    if (ms <= 0) return 'now';
    return `in ${duration(ms)}`;
}

function duration(ms: number): string {
    const min = Math.round(ms / 60_000);
    if (min < 1) return `${Math.max(1, Math.round(ms / 1000))} s`;
    if (min < 120) return `${min} min`;
    const h = ms / 3_600_000;
    return h < 48 ? `${h.toFixed(1)} h` : `${(h / 24).toFixed(1)} days`;
}

const STATUS: Record<string, string> = {
    BOND_STATUS_BONDED: 'Bonded',
    BOND_STATUS_UNBONDING: 'Unbonding',
    BOND_STATUS_UNBONDED: 'Unbonded',
};

const Row = ({ label, value }: { label: string; value: string }) => (
    <Typography>
        <strong>{label}:</strong> {value}
    </Typography>
);

const JailBudget = ({ v }: { v: ValidatorFigures }) => {
    const b = v.jail_budget;
    if (!b) return null;
    const pace = b.tombstoned
        ? 'tombstoned'
        : b.jailed
          ? 'jailed'
          : b.ms_to_jail === null
            ? 'not missing now'
            : `time to jail about ${duration(b.ms_to_jail)}`;
    return (
        <Box>
            <Typography>
                <strong>Jail budget:</strong> {b.missed} of {b.budget} missed ({b.used_percent} %)
            </Typography>
            <LinearProgress
                variant="determinate"
                aria-label="Jail budget used"
                value={Math.min(100, b.used_percent)}
                color={b.used_percent >= 50 ? 'error' : b.used_percent >= 25 ? 'warning' : 'primary'}
                sx={{ my: 0.5, height: 8, borderRadius: 1 }}
            />
            <Typography variant="body2">
                {b.left} blocks left · {pace}
            </Typography>
        </Box>
    );
};

const Proposals = ({ proposals }: { proposals: ProposalFigures[] }) => (
    <Box>
        <Typography>
            <strong>Open proposals:</strong> {proposals.length === 0 ? 'none' : ''}
        </Typography>
        {proposals.map((p) => (
            <Box key={p.id} sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mt: 0.5 }}>
                <Typography variant="body2">
                    #{p.id} {p.title}
                </Typography>
                <Chip size="small" color={p.voted ? 'success' : 'warning'} label={p.voted ? 'Voted' : 'Not voted'} />
                <Typography variant="body2" color="text.secondary">
                    ends {timeLeft(p.voting_end)}
                </Typography>
            </Box>
        ))}
    </Box>
);

const Upgrade = ({ u }: { u: UpgradeFigures }) => (
    <Box>
        {u.plan ? (
            <Typography>
                <strong>Scheduled upgrade:</strong> {u.plan.name} at height {u.plan.height}
                {u.plan.eta ? `, expected ${formatDateTime(u.plan.eta)} (${timeLeft(u.plan.eta)})` : ''}
            </Typography>
        ) : (
            <Row label="Scheduled upgrade" value="none" />
        )}
        {u.app_version && <Row label="App version" value={u.app_version} />}
    </Box>
);

const Validator = ({ v }: { v: ValidatorFigures }) => (
    <Stack spacing={1}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <Typography variant="h6" component="h3">
                {v.moniker ?? v.valoper}
            </Typography>
            {v.status && (
                <Chip
                    size="small"
                    color={v.jailed ? 'error' : v.status === 'BOND_STATUS_BONDED' ? 'success' : 'warning'}
                    label={v.jailed ? 'Jailed' : (STATUS[v.status] ?? v.status)}
                />
            )}
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
            {v.valoper}
        </Typography>
        {v.rank !== null && <Row label="Rank" value={`${v.rank} / ${v.max_validators ?? '?'}`} />}
        {v.voting_power_percent !== null && (
            <Row
                label="Voting power"
                value={`${v.voting_power_percent} %${v.tokens ? ` (${tokenAmount(v.tokens, v.denom)})` : ''}`}
            />
        )}
        {v.commission_percent !== null && <Row label="Commission" value={`${v.commission_percent} %`} />}
        {v.signing && v.signing.blocks.length > 0 && <SigningGrid signing={v.signing} />}
        <JailBudget v={v} />
        {v.proposals && <Proposals proposals={v.proposals} />}
    </Stack>
);

/** Validator at a glance: what the configuration's validator-duty monitors last read (refreshed every 5 s). */
export const ValidatorCard = ({ configurationId }: { configurationId: number }) => {
    const dataProvider = useNodeMonitorDataProvider();
    const { data, isError } = useQuery({
        queryKey: ['configurations', configurationId, 'validator'],
        queryFn: () => dataProvider.getConfigurationValidator(configurationId),
        // Live enough to watch misses as they happen: the server answers from the engine's latest readings.
        refetchInterval: 5_000,
        retry: false,
    });
    return (
        <Card variant="outlined">
            <CardHeader title="Validator" />
            <CardContent>
                {isError ? (
                    <Typography color="error">The validator figures could not be loaded.</Typography>
                ) : !data ? (
                    <LinearProgress aria-label="Loading validator" />
                ) : data.validators.length === 0 && !data.upgrade ? (
                    <Typography color="text.secondary">No figures read yet.</Typography>
                ) : (
                    <Stack spacing={2}>
                        {data.validators.map((v) => (
                            <Validator key={v.valoper} v={v} />
                        ))}
                        {data.upgrade && <Upgrade u={data.upgrade} />}
                    </Stack>
                )}
            </CardContent>
        </Card>
    );
};
