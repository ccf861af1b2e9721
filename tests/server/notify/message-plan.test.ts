import type { outbox } from '../../../server/db/schema';
import { CHANNELS } from '../../../server/notify/channels';
import { planMessages } from '../../../server/notify/message-plan';
import type { NotificationRecord } from '../../../server/notify/record';

/**
 * A channel that could not be reached through a whole server's outage: its SERVER DOWN, the SERVER STILL DOWN of
 * its reminders and its SERVER UP all fall due in one pass, and make two messages, not one of nine monitors.
 */

type Row = typeof outbox.$inferSelect;

const T = Date.UTC(2026, 0, 1, 10, 0, 0);
const KEY = 'server/7/inc-1';
const NAMES = ['RPC', 'Block height', 'Disk'];

function row(id: number, kind: NotificationRecord['kind'], n: number, at: number): Row {
    const record: NotificationRecord = {
        kind,
        incidentId: `inc-${n}`,
        since: T,
        message: kind === 'recovery' ? null : `${NAMES[n - 1]} does not answer`,
        ...(kind === 'recovery' ? { durationMs: at - T } : {}),
        at,
        severity: 'critical',
        subject: {
            id: n,
            name: NAMES[n - 1] ?? '',
            type: 'urlCheck',
            configuration: { id: 1, name: 'Mainnet', chain: 'cosmoshub' },
            server: { id: 7, name: 'validator-1' },
        },
    };
    return {
        id,
        channelId: 1,
        monitorId: n,
        incidentId: record.incidentId,
        kind,
        text: '',
        summary: null,
        payload: JSON.stringify(record),
        status: 'pending',
        groupKey: KEY,
        attempts: 0,
        nextAttemptAt: new Date(at),
        lastError: null,
        createdAt: new Date(at),
        sentAt: null,
    } as Row;
}

it("a group's alerts, reminders and recoveries due together: one SERVER DOWN still failing, then one SERVER UP", () => {
    const rows = [1, 2, 3].flatMap((n) => [
        row(n, 'alert', n, T),
        row(10 + n, 'reminder', n, T + 30 * 60_000),
        row(20 + n, 'recovery', n, T + 40 * 60_000),
    ]);
    rows.sort((a, b) => a.id - b.id);
    const planned = planMessages(CHANNELS.telegram, rows, null);
    const texts = planned.map((p) => (p.message as { text: string }).text.split('\n'));
    expect(texts.map((t) => t[0])).toEqual([
        '🔴 <b>SERVER DOWN</b> validator-1 — 3 monitors failing: RPC, Block height, Disk',
        '✅ <b>SERVER UP</b> validator-1 — 3 monitors recovered: RPC, Block height, Disk',
    ]);
    expect(texts[0]).toContain('Still failing since 2026-01-01 10:00:00 UTC (30 min so far)');
    expect(planned.map((p) => p.rows.map((r) => r.id))).toEqual([
        [1, 2, 3, 11, 12, 13],
        [21, 22, 23],
    ]);
});
