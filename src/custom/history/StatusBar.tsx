import { Box, Tooltip, Typography } from '@mui/material';
import { type KeyboardEvent, useRef, useState } from 'react';

import type { CheckResult } from '../../providers/history';
import { formatDateTime } from '../../ui/format';

const LEVELS = {
    ok: { label: 'OK', color: 'success.main' },
    warning: { label: 'Warning', color: 'warning.main' },
    error: { label: 'Error', color: 'error.main' },
} as const;

const levelOf = (check: CheckResult) => LEVELS[check.level] ?? LEVELS.error;

/** `fra-1 Error, local OK, sgp-1 No answer`: what each location saw, for a check made from several; else ''. */
export const locationsText = (check: CheckResult) =>
    (check.locations ?? [])
        .map((l) => `${l.location} ${l.level === 'none' ? 'No answer' : (LEVELS[l.level] ?? LEVELS.error).label}`)
        .join(', ');

/**
 * `Warning at 24/11/2026, 07:00:00: Node is 3 blocks behind`, then `. By location: fra-1 Error, local OK` for a
 * check made from several: what a bar says to a screen reader.
 */
export const checkLabel = (check: CheckResult) => {
    const where = locationsText(check);
    return `${levelOf(check).label} at ${formatDateTime(check.t)}${check.message ? `: ${check.message}` : ''}${where ? `. By location: ${where}` : ''}`;
};

/**
 * The latest checks as a row of bars, oldest left (like Uptime Kuma's heartbeat bar). Each bar names its level,
 * time and message, shown on hover or focus; one bar takes the Tab stop and the arrow keys move along the row, so
 * the bar is one stop for keyboard users and not a hundred. A line of counts says the same without colour.
 */
export const StatusBar = ({ checks }: { checks: CheckResult[] }) => {
    const [active, setActive] = useState(checks.length - 1);
    const bars = useRef<(HTMLElement | null)[]>([]);
    const current = Math.min(Math.max(active, 0), checks.length - 1);

    if (checks.length === 0) return <Typography color="text.secondary">No checks recorded yet</Typography>;

    const move = (event: KeyboardEvent) => {
        const next = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: checks.length - 1 }[
            event.key as 'ArrowLeft'
        ];
        if (next === undefined || next < 0 || next >= checks.length) return;
        event.preventDefault();
        setActive(next);
        bars.current[next]?.focus();
    };
    const counts = { ok: 0, warning: 0, error: 0 };
    for (const check of checks) counts[check.level in counts ? check.level : 'error'] += 1;

    return (
        <Box>
            <Box
                role="list"
                aria-label={`Last ${checks.length} checks`}
                onKeyDown={move}
                sx={{ display: 'flex', gap: '2px', alignItems: 'stretch', height: 28 }}
            >
                {checks.map((check, index) => (
                    <Tooltip
                        key={check.t}
                        describeChild
                        title={
                            <>
                                <strong>{formatDateTime(check.t)}</strong>
                                <br />
                                {levelOf(check).label}
                                {check.message ? `: ${check.message}` : ''}
                                {check.locations?.length ? (
                                    <>
                                        <br />
                                        {`By location: ${locationsText(check)}`}
                                    </>
                                ) : null}
                            </>
                        }
                    >
                        <Box
                            role="listitem"
                            aria-label={checkLabel(check)}
                            tabIndex={index === current ? 0 : -1}
                            ref={(element: HTMLElement | null) => {
                                bars.current[index] = element;
                            }}
                            onFocus={() => setActive(index)}
                            sx={{
                                flex: '1 1 0',
                                minWidth: 2,
                                maxWidth: 10,
                                borderRadius: 0.5,
                                bgcolor: levelOf(check).color,
                                '&:hover, &:focus-visible': { transform: 'scaleY(1.15)' },
                                '&:focus-visible': { outline: 2, outlineColor: 'text.primary', outlineOffset: 1 },
                            }}
                        />
                    </Tooltip>
                ))}
            </Box>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {`Last ${checks.length} checks: ${counts.ok} OK, ${counts.warning} Warning, ${counts.error} Error`}
            </Typography>
        </Box>
    );
};
