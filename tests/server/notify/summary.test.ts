import type { MonitorTarget } from '../../../server/engine/targets';
import { SUMMARY_MAX, summaryLine } from '../../../server/notify/summary';

const target = (over: Partial<MonitorTarget> = {}): MonitorTarget => ({
    id: 7,
    name: 'Block height',
    type: 'urlCheck',
    settings: {},
    key: '',
    configuration: { id: 1, name: 'Mainnet', chain: 'cosmoshub', companyId: 1 },
    server: { id: 2, name: 'validator-1', address: 'http://127.0.0.1' },
    services: [],
    ...over,
});

const now = Date.UTC(2026, 0, 1, 12);
const incident = 'a1b2c3d4-e5f6-0000-0000-000000000000';
/** Any `&` that does not start one of the entities escapeHtml writes: a cut entity or an unescaped ampersand. */
const badAmpersand = /&(?!amp;|lt;|gt;)/;

describe('summaryLine', () => {
    it('names the kind, configuration, server, monitor, problem and short incident id', () => {
        const line = summaryLine(
            target(),
            { kind: 'alert', incidentId: incident, since: now - 60_000, message: 'stalled' },
            now
        );
        expect(line).toBe('🔴 Mainnet · validator-1 · Block height: stalled · #a1b2c3d4');
        const reminder = summaryLine(target(), { kind: 'reminder', incidentId: incident, since: 0, message: 'x' }, now);
        expect(reminder.startsWith('🔁 ')).toBe(true);
    });

    it('says how long a recovered incident lasted', () => {
        const line = summaryLine(
            target(),
            {
                kind: 'recovery',
                incidentId: incident,
                since: now - 3_725_000,
                durationMs: 3_725_000,
                message: 'was stalled',
            },
            now
        );
        expect(line).toBe('✅ Mainnet · validator-1 · Block height: recovered after 1 h 2 min · #a1b2c3d4');
        // Without a stored duration, from `since` to now.
        const open = summaryLine(
            target(),
            { kind: 'recovery', incidentId: incident, since: now - 45_000, message: null },
            now
        );
        expect(open).toContain('recovered after 45 s');
    });

    it('keeps a multi-line problem on one line', () => {
        const line = summaryLine(
            target(),
            { kind: 'alert', incidentId: incident, since: 0, message: 'a\n  b\tc\n' },
            now
        );
        expect(line).toBe('🔴 Mainnet · validator-1 · Block height: a b c · #a1b2c3d4');
    });

    it('marks a kind it does not know with ⚠️ and its name, and a monitor without a server with —', () => {
        const line = summaryLine(
            target({ server: null }),
            { kind: 'maintenance', incidentId: incident, since: 0, message: 'up and down' },
            now
        );
        expect(line).toBe('⚠️ maintenance: Mainnet · — · Block height: up and down · #a1b2c3d4');
    });

    it('marks a flapping monitor with its own sign', () => {
        const line = summaryLine(target(), { kind: 'flapping', incidentId: incident, since: 0, message: 'x' }, now);
        expect(line).toBe('🔀 Mainnet · validator-1 · Block height: x · #a1b2c3d4');
    });

    it('escapes HTML and stays within its length without cutting an entity', () => {
        const evil = target({
            name: '<script>&'.repeat(40),
            configuration: { id: 1, name: '<b>Main</b>', chain: 'c', companyId: 1 },
        });
        const line = summaryLine(
            evil,
            { kind: 'alert', incidentId: '<i>&xyz', since: 0, message: '<&>'.repeat(200) },
            now
        );
        expect(line).not.toMatch(/<|>/);
        expect(line).not.toMatch(badAmpersand);
        expect(line).toContain('&lt;b&gt;Main&lt;/b&gt;');
        expect(line).toContain('#&lt;i&gt;&amp;xyz');
        expect(line.length).toBeLessThanOrEqual(SUMMARY_MAX);
        expect(line).toContain('…');
    });
});
