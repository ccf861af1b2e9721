import { CHANNELS } from '../../../server/notify/channels';
import { plain, telegramHtml } from '../../../server/notify/format';
import { messageOf, probeNoticeMessage, textOf } from '../../../server/notify/message';
import type { ProbeNoticeRecord } from '../../../server/notify/record';

/** What a company's channels are told when a probe location loses its network or stops reporting, and when it ends. */

const since = Date.UTC(2026, 10, 27, 22, 0, 0);
const notice = (kind: ProbeNoticeRecord['kind'], extra: Partial<ProbeNoticeRecord> = {}): ProbeNoticeRecord => ({
    kind,
    incidentId: `probe-${kind}-fra-1-${since}`,
    company: { id: 1, name: 'Acme Validators' },
    location: 'fra-1',
    since,
    at: since + 4 * 60_000,
    ...extra,
});

describe('probe notices', () => {
    it.each<[ProbeNoticeRecord, string]>([
        [
            notice('probe-cut', { failing: 93, checked: 100, at: since }),
            [
                '📡 PROBE LOST ITS NETWORK fra-1',
                'Probe fra-1 lost its network: 93 of 100 targets unreachable from it only',
                'Company: Acme Validators',
                'Since: 2026-11-27 22:00:00 UTC',
                'Its readings count toward no alert until it reaches its targets again; the other locations judge them.',
            ].join('\n'),
        ],
        [
            notice('probe-back'),
            [
                '✅ PROBE NETWORK BACK fra-1',
                'Probe fra-1 reaches its targets again: its readings count again',
                'Company: Acme Validators',
                'Was cut off for 4 min, since 2026-11-27 22:00:00 UTC',
            ].join('\n'),
        ],
        [
            notice('probe-silent', { monitors: 12, at: since }),
            [
                '🔇 PROBE STOPPED REPORTING fra-1',
                'Probe fra-1 stopped reporting: 12 monitors check from it',
                'Company: Acme Validators',
                'Since: 2026-11-27 22:00:00 UTC',
                'The other locations judge its monitors until it reports again.',
            ].join('\n'),
        ],
        [
            notice('probe-reporting'),
            [
                '✅ PROBE REPORTING AGAIN fra-1',
                'Probe fra-1 reports again: its readings count again',
                'Company: Acme Validators',
                'Was silent for 4 min, since 2026-11-27 22:00:00 UTC',
            ].join('\n'),
        ],
    ])('%#: reads as one message naming the location and the company', (record, text) => {
        expect(plain(telegramHtml(probeNoticeMessage(record)))).toBe(text);
        expect(messageOf(record).heading).toBe(probeNoticeMessage(record).heading);
    });

    it('carries no Acknowledge or Silence buttons: it asks nothing of the company', () => {
        expect(probeNoticeMessage(notice('probe-cut')).actions).toBeUndefined();
    });

    it('pages no one on PagerDuty, and reaches a webhook with its own kind and the location', () => {
        expect(CHANNELS.pagerduty.render(notice('probe-cut'))).toBeNull();
        expect(CHANNELS.webhook.render(notice('probe-cut', { failing: 2, checked: 2 }))).toMatchObject({
            kind: 'probe_cut',
            severity: 'warning',
            location: 'fra-1',
            monitor: null,
            message: textOf(probeNoticeMessage(notice('probe-cut', { failing: 2, checked: 2 }))).join('\n'),
        });
        expect(CHANNELS.webhook.render(notice('probe-reporting'))).toMatchObject({
            kind: 'probe_reporting',
            severity: 'info',
            duration_seconds: 240,
        });
    });
});
