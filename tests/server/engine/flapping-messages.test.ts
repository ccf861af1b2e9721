import type { MonitorTarget } from '../../../server/engine/targets';
import { INITIAL_ALERT_STATE, transition } from '../../../server/engine/transitions';
import { formatNotification } from '../../../server/notify/format';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 21, 8, 0, 0);
const target: MonitorTarget = {
    id: 7,
    name: 'Sentry <1> height',
    type: 'blockCheck',
    settings: {},
    key: 'k',
    configuration: { id: 1, name: 'Osmosis & co', chain: 'osmosis', companyId: 1 },
    server: { id: 2, name: 'sentry-1', address: '10.0.0.1' },
    services: [],
};
const err = { level: 'error' as const, message: 'Node halted at height 10' };
const ok = { level: 'ok' as const, message: null };

/** The Telegram texts a monitor sends while it flaps, then settles healthy. */
function texts(): string[] {
    let state = INITIAL_ALERT_STATE;
    const out: string[] = [];
    const verdicts = [err, ok, err, ok, ...Array(16).fill(ok)];
    verdicts.forEach((v, i) => {
        const next = transition(state, v, 10, T0 + i * MIN, () => 'a1b2c3d4-incident');
        if (next.notification) out.push(formatNotification(target, next.notification, T0 + i * MIN));
        state = next.state;
    });
    return out;
}

it('tells the operator the monitor is flapping, then that it stopped, HTML-escaped', () => {
    const [, , flapping, settled] = texts();
    expect(flapping).toBe(
        [
            '🔀 <b>FLAPPING</b> Sentry &lt;1&gt; height',
            'Configuration: Osmosis &amp; co (osmosis)',
            'Server: sentry-1',
            'Monitor: Sentry &lt;1&gt; height (blockCheck)',
            'Problem: Entered Error 2 times within 15 min, now: Node halted at height 10. Further changes are held back until it is stable for 15 min.',
            'Since: 2026-11-21 08:02:00 UTC',
            '<i>Incident a1b2c3d4</i>',
        ].join('\n')
    );
    expect(settled).toContain('✅ <b>RECOVERED</b> Sentry &lt;1&gt; height');
    expect(settled).toContain('Was flapping for 16 min, since 2026-11-21 08:02:00 UTC');
});
