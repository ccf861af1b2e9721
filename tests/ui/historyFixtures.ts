/** Answers of the history API (a monitor's checks, its charted history, a server's disk history) for the fake API. */

const MINUTE = 60_000;

/** `count` checks a minute apart, newest last, ending now: every 10th a Warning, every 25th an Error. */
export function checksReply(count = 100, now = Date.now()) {
    return {
        results: Array.from({ length: count }, (_, index) => {
            const level = index % 25 === 24 ? 'error' : index % 10 === 9 ? 'warning' : 'ok';
            return {
                t: new Date(now - (count - 1 - index) * MINUTE).toISOString(),
                level,
                message: level === 'ok' ? null : `Check ${index + 1} ${level}`,
                latency_ms: 100 + index,
                value: 1000 + index,
            };
        }),
    };
}

/** `count` hourly buckets ending now, with the uptime figures given. */
export function historyReply(
    uptime: Record<string, number | null> = { '24h': 99.5, '7d': 99.95, '30d': 98.123, '1y': null },
    count = 24,
    now = Date.now()
) {
    return {
        points: Array.from({ length: count }, (_, index) => ({
            t: new Date(now - (count - 1 - index) * 60 * MINUTE).toISOString(),
            ok: 58,
            warning: 1,
            error: index === 5 ? 1 : 0,
            latency_avg_ms: 100 + index,
            latency_max_ms: 400 + index,
            value_last: 5000 + index,
            value_min: 4990 + index,
            value_max: 5000 + index,
        })),
        uptime,
    };
}

/** Two mountpoints: `/` growing, `/data` flat. */
export function diskHistoryReply(now = Date.now()) {
    const days = (percents: number[]) =>
        percents.map((used_percent, index) => ({
            t: new Date(now - (percents.length - 1 - index) * 24 * 60 * MINUTE).toISOString(),
            used_percent,
        }));
    return {
        mountpoints: [
            { mountpoint: '/', points: days([60, 62, 64, 66, 68, 70, 72]), days_until_full: 12.6 },
            { mountpoint: '/data', points: days([40, 40, 40, 40, 40, 40, 40]), days_until_full: null },
        ],
    };
}
