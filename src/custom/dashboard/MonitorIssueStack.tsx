import { Box, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

import type { Monitor } from '../../../common/entities';
import {
    ChainHalt,
    ConfigurationLink,
    chainHaltLabel,
    IssueMessage,
    lastCheck,
    MonitorLink,
    MonitorStatus,
    ServerAction,
} from './issueParts';

const Labelled = ({ label, children }: { label: string; children: ReactNode }) => (
    <Box component="span" sx={{ mr: 1.5, display: 'inline-block' }}>
        <Typography component="span" variant="caption" color="text.secondary">
            {label}:{' '}
        </Typography>
        {children}
    </Box>
);

/** One monitor on a phone: its message first, then its status and name, then where it runs and the way there. */
const IssueItem = ({ monitor }: { monitor: Monitor }) => (
    <Box component="li" sx={{ py: 1.5, borderBottom: 1, borderColor: 'divider', overflowWrap: 'anywhere' }}>
        <Typography variant="body2" component="div">
            <IssueMessage monitor={monitor} />
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, mt: 1 }}>
            <MonitorStatus monitor={monitor} />
            <Typography variant="body2" component="div" sx={{ flex: 1 }}>
                <MonitorLink monitor={monitor} />
            </Typography>
            <ServerAction monitor={monitor} />
        </Box>
        <Typography variant="body2" component="div" sx={{ mt: 0.5 }}>
            <Labelled label="Configuration">
                <ConfigurationLink monitor={monitor} />
            </Labelled>
            <Labelled label="Server">{monitor.server?.name ?? 'N/A'}</Labelled>
            <Labelled label="Last Check">{lastCheck(monitor)}</Labelled>
        </Typography>
    </Box>
);

/** The dashboard's rows on a phone, stacked: a chain halt's line above its monitors, as in the table. */
export const MonitorIssueStack = ({ groups }: { groups: Monitor[][] }) => (
    <Stack component="ul" aria-label="Monitors" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {groups.map((group) => {
            const label = chainHaltLabel(group);
            return [
                label && group[0] && (
                    <Box
                        component="li"
                        key={`halt-${group[0].id}`}
                        aria-label={label}
                        sx={{ py: 1.5, px: 1, bgcolor: 'action.hover', overflowWrap: 'anywhere' }}
                    >
                        <ChainHalt monitors={group} label={label} />
                    </Box>
                ),
                ...group.map((monitor) => <IssueItem key={monitor.id} monitor={monitor} />),
            ];
        })}
    </Stack>
);
