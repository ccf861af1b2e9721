import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { incidents, monitors, outbox } from '../db/schema';
import { decideHold, type HeldRow, HOLD_CAP_MS, type Member, type Sibling } from './server-decision';
import { type NotificationRecord, parsePayload } from './record';

export { HOLD_CAP_MS };

type NewRow = typeof outbox.$inferInsert;

/**
 * When a server goes down, every monitor on it fails within about one check interval, and each would page on its
 * own. So an alert of a monitor whose server has other enabled monitors is held in the outbox (status `held`) for a
 * short window, and the outbox decides from the database, whichever process runs it, what becomes of it
 * (server-decision.ts): sent at once, alone, when another monitor of the server is seen healthy after it; sent with
 * the alerts of the others as one SERVER DOWN message when every one of them is failing; alone when the window ends.
 * The recoveries of a SERVER DOWN are held the same way and go out as one SERVER UP when all its incidents closed;
 * its reminders go out as one SERVER STILL DOWN once each of its open, unacknowledged incidents has one, or after
 * HOLD_CAP_MS (each monitor keeps its own reminder interval, so they come close together but not at once).
 *
 * The window is the longest interval among the server's monitors plus HOLD_SLACK_MS, at most HOLD_CAP_MS: about
 * the time every other monitor takes to be checked once after the first one failed.
 */
const HOLD_SLACK_MS = 15_000;

/** A server's key while its rows are held; a released group's key adds the id of its first incident. */
const serverKey = (serverId: number) => `server/${serverId}`;
const isGroupKey = (key: string | null): key is string => !!key && key.split('/').length === 3;

/** The SERVER DOWN group each of `incidentIds` went out in (its alert's rows keep the key), when it did. */
export async function serverGroupsOf(db: Db, incidentIds: string[]): Promise<Map<string, string>> {
    const groupOf = new Map<string, string>();
    if (incidentIds.length === 0) return groupOf;
    const grouped = await db
        .selectDistinct({ incidentId: outbox.incidentId, groupKey: outbox.groupKey })
        .from(outbox)
        .where(and(inArray(outbox.incidentId, incidentIds), eq(outbox.kind, 'alert'), isNotNull(outbox.groupKey)));
    for (const g of grouped) if (g.incidentId && isGroupKey(g.groupKey)) groupOf.set(g.incidentId, g.groupKey);
    return groupOf;
}

/** The incidents whose alerts went out in the group `key`, in the order they were queued (the message's order). */
export async function groupIncidents(db: Db, key: string): Promise<string[]> {
    const rows = await db
        .select({ id: outbox.incidentId })
        .from(outbox)
        .where(and(eq(outbox.groupKey, key), eq(outbox.kind, 'alert')))
        .orderBy(asc(outbox.id));
    return [...new Set(rows.flatMap((r) => (r.id ? [r.id] : [])))];
}

/** What writeTransitions queues: one notification and its rows, one per channel. */
export interface Queued {
    record: NotificationRecord;
    rows: NewRow[];
}

/**
 * Marks the rows to hold, inside writeTransitions' transaction (so a row is never seen pending first): alerts of a
 * monitor sharing its server with other enabled monitors, and reminders and recoveries of an incident that went out
 * in a SERVER DOWN. Any other notification of an incident whose alert is still held releases that alert first, so
 * that a recovery (or a reminder) never overtakes it.
 */
export async function holdRows(
    db: Db,
    queued: Queued[],
    /** A monitor's check interval (ms), from its type and stored settings. */
    intervalOf: (type: string, configurationObject: string) => number
): Promise<NewRow[]> {
    const alerts = queued.filter((q) => q.record.kind === 'alert' && q.record.subject.server);
    const others = queued.filter((q) => q.record.kind !== 'alert');
    const serverIds = [...new Set(alerts.map((q) => q.record.subject.server?.id ?? 0))];
    const siblings = serverIds.length
        ? await db
              .select({ serverId: monitors.serverId, type: monitors.type, settings: monitors.configurationObject })
              .from(monitors)
              .where(and(inArray(monitors.serverId, serverIds), eq(monitors.isEnabled, true)))
        : [];
    const windowOf = new Map<number, number>();
    for (const id of serverIds) {
        const on = siblings.filter((s) => s.serverId === id);
        if (on.length < 2) continue;
        const longest = Math.max(...on.map((s) => intervalOf(s.type, s.settings)));
        windowOf.set(id, Math.min(HOLD_CAP_MS, longest + HOLD_SLACK_MS));
    }
    const otherIncidents = [...new Set(others.map((q) => q.record.incidentId))];
    if (otherIncidents.length) {
        await db
            .update(outbox)
            .set({ status: 'pending', groupKey: null, nextAttemptAt: sql`now()` })
            .where(and(inArray(outbox.incidentId, otherIncidents), eq(outbox.status, 'held')));
    }
    const follows = (r: NotificationRecord) => r.kind === 'recovery' || r.kind === 'reminder';
    const groupOf = await serverGroupsOf(
        db,
        others.filter((q) => follows(q.record)).map((q) => q.record.incidentId)
    );
    return queued.flatMap(({ record, rows }) => {
        const server = record.subject.server;
        const window = record.kind === 'alert' && server ? windowOf.get(server.id) : undefined;
        const group = follows(record) ? groupOf.get(record.incidentId) : undefined;
        if (window === undefined && group === undefined) return rows;
        const after = window ?? (record.kind === 'reminder' ? HOLD_CAP_MS : recoveryWindow(record));
        const until = new Date(record.at + after);
        const groupKey = group ?? serverKey(server?.id ?? 0);
        return rows.map((r) => ({ ...r, status: 'held' as const, groupKey, nextAttemptAt: until }));
    });
}

/** The recoveries of a SERVER DOWN wait for each other as long as its alerts did, at most. */
const recoveryWindow = (record: NotificationRecord) =>
    Math.min(HOLD_CAP_MS, Math.max(HOLD_SLACK_MS, record.at - record.since));

/**
 * Decides about every held row (server-decision.ts) and releases those whose fate is known: to be sent alone
 * (group key cleared) or with their group (all at once, under the group's key, so the dispatcher sees them together).
 * Run before each delivery pass by every dispatcher; releasing only rows still held makes a second process's
 * decision about the same rows a no-op.
 */
export async function releaseHeld(db: Db, nowMs: number): Promise<void> {
    // Most passes find nothing held: one indexed look, without opening a transaction.
    const [any] = await db.select({ id: outbox.id }).from(outbox).where(eq(outbox.status, 'held')).limit(1);
    if (!any) return;
    // One snapshot for every read: a monitor's health, its held row and its incident are committed together, and
    // reading them at different moments could see one without the other (a group released without its last member).
    const seen = await db.transaction((tx) => readHeld(tx as unknown as Db), {
        isolationLevel: 'repeatable read',
        accessMode: 'read only',
    });
    if (!seen) return;
    const decisions = decideHold(seen.rows, seen.siblings, seen.members, nowMs);
    for (const d of decisions) {
        await db
            .update(outbox)
            .set({ status: 'pending', groupKey: d.groupKey, nextAttemptAt: new Date(nowMs) })
            .where(and(inArray(outbox.id, d.ids), eq(outbox.status, 'held')));
    }
}

/** The held rows, the monitors of their servers and the incidents of their groups, or null when none is held. */
async function readHeld(db: Db): Promise<{ rows: HeldRow[]; siblings: Sibling[]; members: Member[] } | null> {
    const held = await db
        .select({
            id: outbox.id,
            groupKey: outbox.groupKey,
            monitorId: outbox.monitorId,
            incidentId: outbox.incidentId,
            kind: outbox.kind,
            payload: outbox.payload,
            until: outbox.nextAttemptAt,
        })
        .from(outbox)
        .where(eq(outbox.status, 'held'));
    if (held.length === 0) return null;
    const rows: HeldRow[] = held.map((h) => {
        const record = parsePayload(h.payload);
        return {
            id: h.id,
            key: h.groupKey ?? '',
            monitorId: h.monitorId ?? 0,
            incidentId: h.incidentId ?? '',
            kind: h.kind,
            at: record && 'at' in record ? record.at : h.until.getTime(),
            until: h.until.getTime(),
        };
    });
    const serverIds = [...new Set(rows.filter((r) => !isGroupKey(r.key)).map((r) => Number(r.key.split('/')[1])))];
    const siblings: Sibling[] = serverIds.length
        ? (
              await db
                  .select({
                      id: monitors.id,
                      serverId: monitors.serverId,
                      status: monitors.status,
                      lastError: monitors.lastError,
                      lastCheck: monitors.lastCheck,
                  })
                  .from(monitors)
                  .where(and(inArray(monitors.serverId, serverIds), eq(monitors.isEnabled, true)))
          ).map((m) => ({
              id: m.id,
              serverId: m.serverId ?? 0,
              level: !m.status ? 'error' : m.lastError ? 'warning' : 'ok',
              checkedAt: m.lastCheck?.getTime() ?? null,
          }))
        : [];
    const groupKeys = [...new Set(rows.filter((r) => isGroupKey(r.key)).map((r) => r.key))];
    const members = groupKeys.length
        ? await db
              .selectDistinct({
                  key: outbox.groupKey,
                  incidentId: outbox.incidentId,
                  status: incidents.status,
                  acknowledgedAt: incidents.acknowledgedAt,
              })
              .from(outbox)
              .innerJoin(incidents, eq(incidents.id, outbox.incidentId))
              .where(and(inArray(outbox.groupKey, groupKeys), eq(outbox.kind, 'alert')))
        : [];
    return {
        rows,
        siblings,
        members: members.map((m) => ({
            key: m.key ?? '',
            incidentId: m.incidentId ?? '',
            closed: m.status === 'closed',
            acknowledged: m.acknowledgedAt !== null,
        })),
    };
}
