import ClearAllIcon from '@mui/icons-material/ClearAll';
import { Box, Button, Card, Chip, Stack, TextField, Typography, useTheme } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { Title } from 'react-admin';

import { DARK_LEVEL_COLORS, filterLines, LEVEL_COLORS, timeOfDay } from './logLines';
import { useLogTail } from './useLogTail';

const STATUS_CHIP = {
    connecting: { label: 'Connecting...', color: 'default' },
    open: { label: 'Connected', color: 'success' },
    error: { label: 'Reconnecting...', color: 'warning' },
    closed: { label: 'Disconnected', color: 'default' },
} as const;

/** /logger (super admins): the server's own log lines, live, with a message filter and Clear. */
export const LogTail = () => {
    const colors = useTheme().palette.mode === 'dark' ? DARK_LEVEL_COLORS : LEVEL_COLORS;
    const { lines, status, clear } = useLogTail();
    const [filter, setFilter] = useState('');
    const visible = filterLines(lines, filter);
    const list = useRef<HTMLDivElement>(null);
    const stickToBottom = useRef(true);

    // Follow new lines while the reader is at the bottom; leave the position alone after a scroll up.
    useEffect(() => {
        const element = list.current;
        if (element && stickToBottom.current && visible.length > 0) element.scrollTop = element.scrollHeight;
    }, [visible.length]);

    const chip = STATUS_CHIP[status];
    return (
        <Box>
            <Title title="Tail log" />
            <Stack direction="row" spacing={2} alignItems="center" sx={{ mb: 2 }}>
                <Typography variant="h4" component="h1">
                    Tail log
                </Typography>
                <Chip size="small" label={chip.label} color={chip.color} />
            </Stack>
            <Stack direction="row" spacing={2} alignItems="center" sx={{ mb: 2 }}>
                <TextField
                    label="Filter messages"
                    size="small"
                    value={filter}
                    onChange={(event) => setFilter(event.target.value)}
                    sx={{ minWidth: { xs: 0, sm: 280 }, flex: { xs: 1, sm: 'none' } }}
                />
                <Button variant="outlined" startIcon={<ClearAllIcon />} onClick={clear}>
                    Clear
                </Button>
            </Stack>
            <Card
                variant="outlined"
                ref={list}
                role="log"
                aria-label="Log messages"
                onScroll={(event) => {
                    const element = event.currentTarget;
                    stickToBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
                }}
                sx={{ height: '70vh', overflow: 'auto', p: 1, fontFamily: 'monospace', fontSize: 13 }}
            >
                {visible.length === 0 ? (
                    <Typography color="text.secondary" sx={{ p: 1 }}>
                        No messages
                    </Typography>
                ) : (
                    visible.map((line) => (
                        <Box
                            key={line.id}
                            data-level={line.level}
                            style={{ color: colors[line.level] }}
                            sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', py: 0.25 }}
                        >
                            <span>{timeOfDay(line.timestamp)}</span> <strong>[{line.level.toUpperCase()}]</strong>{' '}
                            <span>{line.message}</span>
                        </Box>
                    ))
                )}
            </Card>
        </Box>
    );
};
