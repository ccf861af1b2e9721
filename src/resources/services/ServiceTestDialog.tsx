import {
    Alert,
    Box,
    Button,
    CircularProgress,
    Dialog,
    DialogActions,
    DialogContent,
    DialogTitle,
    Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';

import type { Service } from '../../../common/entities';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';

/** Spec §4/§9: up to 4 attempts, 1 second apart; HTTP 200 counts as success. */
export const TEST_ATTEMPTS = 4;
export const TEST_INTERVAL_MS = 1000;

type Outcome = 'running' | 'success' | 'failure';

export interface ServiceTestDialogProps {
    /** The service under test; the dialog is open while set. */
    service: Service | null;
    onClose: () => void;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Test Endpoint: probes the service through the API on opening and shows a running log of the attempts. */
export const ServiceTestDialog = ({ service, onClose }: ServiceTestDialogProps) => (
    <Dialog open={!!service} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="service-test-title">
        <DialogTitle id="service-test-title">Test Endpoint{service ? `: ${service.name}` : ''}</DialogTitle>
        {service && <ServiceTestRun key={service.id} service={service} />}
        <DialogActions>
            <Button onClick={onClose}>Close</Button>
        </DialogActions>
    </Dialog>
);

const ServiceTestRun = ({ service }: { service: Service }) => {
    const dataProvider = useNodeMonitorDataProvider();
    const [log, setLog] = useState<string[]>([]);
    const [outcome, setOutcome] = useState<Outcome>('running');

    useEffect(() => {
        // Closing the dialog (unmount) stops the remaining attempts.
        let cancelled = false;
        const append = (line: string) => {
            if (!cancelled) setLog((lines) => [...lines, line]);
        };
        const run = async () => {
            for (let attempt = 1; attempt <= TEST_ATTEMPTS; attempt++) {
                // The first attempt waits a tick too, so a StrictMode re-mount does not probe twice.
                await wait(attempt > 1 ? TEST_INTERVAL_MS : 0);
                if (cancelled) return;
                let status: number | null = null;
                let reason: string | null = null;
                try {
                    ({ status, message: reason } = await dataProvider.probeService(service.id));
                } catch {
                    status = null;
                }
                if (cancelled) return;
                const ok = status === 200;
                const answer = status === null ? 'no answer' : `HTTP ${status}`;
                // The API says why a probe failed ("… refused the connection"); its bare 502 would hide that.
                append(
                    ok || reason === null
                        ? `Attempt ${attempt}/${TEST_ATTEMPTS}: ${answer}${ok ? ' - success' : ' - failed'}`
                        : `Attempt ${attempt}/${TEST_ATTEMPTS}: failed - ${reason}`
                );
                if (ok) {
                    setOutcome('success');
                    return;
                }
            }
            if (!cancelled) setOutcome('failure');
        };
        run();
        return () => {
            cancelled = true;
        };
    }, [dataProvider, service.id]);

    return (
        <DialogContent>
            <Typography variant="body2" color="text.secondary" gutterBottom sx={{ wordBreak: 'break-all' }}>
                Testing {service.address}
            </Typography>
            <Box
                component="pre"
                role="log"
                aria-label="Test log"
                sx={{
                    bgcolor: 'grey.900',
                    color: 'grey.100',
                    p: 1.5,
                    borderRadius: 1,
                    minHeight: 96,
                    fontSize: 13,
                    whiteSpace: 'pre-wrap',
                    m: 0,
                }}
            >
                {log.map((line) => (
                    <div key={line}>{line}</div>
                ))}
            </Box>
            <Box sx={{ mt: 2 }}>
                {outcome === 'running' && (
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                        <CircularProgress size={16} />
                        <Typography variant="body2">Testing...</Typography>
                    </Box>
                )}
                {outcome === 'success' && <Alert severity="success">Endpoint is reachable</Alert>}
                {outcome === 'failure' && (
                    <Alert severity="error">Endpoint test failed after {TEST_ATTEMPTS} attempts</Alert>
                )}
            </Box>
        </DialogContent>
    );
};
