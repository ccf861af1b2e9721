import { CHANNELS } from '../../../server/notify/channels';
import type { NotificationFacts, NotificationSubject } from '../../../server/notify/record';
import { toRecord } from '../../../server/notify/record';
import { type RoutedLink, routes } from '../../../server/notify/routing';

/** A link's min_severity: warnings and their clears are routed only to links that ask for warnings. */

const T0 = Date.UTC(2026, 10, 24, 4, 0, 0);
const subject: NotificationSubject = {
    id: 12,
    name: 'Disk <root>',
    type: 'nodeExporterDiskSpace',
    configuration: { id: 3, name: 'Mainnet', chain: 'cosmoshub' },
    server: { id: 7, name: 'validator-1' },
};
const facts = (kind: NotificationFacts['kind'], extra: Partial<NotificationFacts> = {}): NotificationFacts => ({
    kind,
    incidentId: 'w-5b1c0f6e',
    since: T0,
    message: 'node_exporter answered HTTP 503',
    ...extra,
});
const warning = toRecord(subject, facts('warning'), T0);
const cleared = toRecord(subject, facts('warning-cleared', { durationMs: 300_000, message: null }), T0 + 300_000);
const alert = toRecord(subject, facts('alert', { incidentId: 'a-1' }), T0);
const link = (over: Partial<RoutedLink> = {}): RoutedLink => ({
    type: 'webhook',
    sendRecoveries: true,
    sendReminders: true,
    ...over,
});

describe('routes', () => {
    it('sends warnings and their clears only where min_severity is warning; alerts everywhere', () => {
        expect(warning.severity).toBe('warning');
        expect(cleared.severity).toBe('warning');
        expect(alert.severity).toBe('critical');
        for (const type of ['telegram', 'discord', 'slack', 'pagerduty', 'webhook', 'email'] as const) {
            expect(routes(link({ type }), warning)).toBe(false);
            expect(routes(link({ type, minSeverity: 'critical' }), cleared)).toBe(false);
            expect(routes(link({ type, minSeverity: 'warning' }), warning)).toBe(true);
            expect(routes(link({ type, minSeverity: 'warning' }), cleared)).toBe(true);
            expect(routes(link({ type }), alert)).toBe(true);
            expect(routes(link({ type, minSeverity: 'warning' }), alert)).toBe(true);
        }
    });

    it('treats the clear as a recovery: send_recoveries false leaves it out, the warning still goes', () => {
        const quiet = link({ minSeverity: 'warning', sendRecoveries: false });
        expect(routes(quiet, warning)).toBe(true);
        expect(routes(quiet, cleared)).toBe(false);
    });
});

describe('rendering a warning and its clear', () => {
    it('telegram: its own headings, user text escaped', () => {
        const { text } = CHANNELS.telegram.render(warning) as { text: string };
        expect(text.split('\n')[0]).toBe('⚠️ <b>WARNING</b> Disk &lt;root&gt;');
        expect(text).toContain('Problem: node_exporter answered HTTP 503');
        const { text: clear } = CHANNELS.telegram.render(cleared) as { text: string };
        expect(clear.split('\n')[0]).toBe('✅ <b>WARNING CLEARED</b> Disk &lt;root&gt;');
        expect(clear).toContain('Was in Warning for 5 min, since 2026-11-24 04:00:00 UTC');
    });

    it('discord: amber for the warning, green for its clear', () => {
        const embed = (r: typeof warning) =>
            (CHANNELS.discord.render(r) as { embeds: { title: string; color: number }[] }).embeds[0];
        expect(embed(warning)).toMatchObject({ title: '[WARNING] Disk <root>', color: 0xf1c40f });
        expect(embed(cleared)).toMatchObject({ title: '[WARNING CLEARED] Disk <root>', color: 0x2ecc71 });
        expect(embed(alert)?.color).not.toBe(0xf1c40f);
    });

    it('slack: the warning sign in the header', () => {
        const header = (r: typeof warning) =>
            (CHANNELS.slack.render(r) as { blocks: { text: { text: string } }[] }).blocks[0]?.text.text;
        expect(header(warning)).toBe('⚠️ [WARNING] Disk <root>');
        expect(header(cleared)).toBe('[WARNING CLEARED] Disk <root>');
    });

    it('webhook: kind warning and warning_cleared with the documented body', () => {
        expect(CHANNELS.webhook.render(warning)).toMatchObject({
            version: 1,
            kind: 'warning',
            severity: 'warning',
            incident_id: 'w-5b1c0f6e',
            monitor: { id: 12, name: 'Disk <root>', type: 'nodeExporterDiskSpace' },
            duration_seconds: null,
        });
        expect(CHANNELS.webhook.render(cleared)).toMatchObject({
            kind: 'warning_cleared',
            severity: 'warning',
            incident_id: 'w-5b1c0f6e',
            duration_seconds: 300,
        });
    });

    it('email: the subject starts with the heading', () => {
        expect(CHANNELS.email.render(warning)).toMatchObject({ subject: '[WARNING] Disk <root>' });
        expect(CHANNELS.email.render(cleared)).toMatchObject({ subject: '[WARNING CLEARED] Disk <root>' });
    });

    it('pagerduty: a warning-severity trigger under its own dedup_key, resolved by the clear', () => {
        expect(CHANNELS.pagerduty.render(warning)).toMatchObject({
            event_action: 'trigger',
            dedup_key: 'w-5b1c0f6e',
            payload: { severity: 'warning' },
        });
        expect(CHANNELS.pagerduty.render(cleared)).toEqual({ event_action: 'resolve', dedup_key: 'w-5b1c0f6e' });
    });
});
