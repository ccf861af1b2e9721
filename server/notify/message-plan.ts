import type { outbox } from '../db/schema';
import type { ChannelDefinition } from './channels';
import {
    isNotice,
    isServerGroup,
    type NotificationRecord,
    parsePayload,
    type ServerGroupRecord,
    withLink,
} from './record';

/**
 * More due rows than this in one channel go out as digests: at 20 messages a minute, a mass outage sent one by
 * one would take hours to reach the chat.
 */
export const DIGEST_THRESHOLD = 3;

type Row = typeof outbox.$inferSelect;

/** One message of a channel and the rows it stands for (one row, a digest, or an alert with its late reminders). */
export interface Outgoing {
    rows: Row[];
    message: unknown;
    what: string;
}

/**
 * A message to send for one row, with the later rows it also stands for (reminders that fell due meanwhile, or the
 * other monitors' rows of a SERVER DOWN or SERVER UP group).
 */
interface Planned {
    row: Row;
    rows: Row[];
    record: NotificationRecord | null;
    /** The records of a server's group (server-hold.ts), when the rows were released together. */
    group?: { key: string; records: NotificationRecord[] };
}

/**
 * The messages for a channel's due rows, in order: digests when there are more than DIGEST_THRESHOLD, each test
 * message on its own (it is meant to be seen as it is), else one message per row.
 */
export function planMessages(def: ChannelDefinition, dueRows: Row[], publicUrl: string | null): Outgoing[] {
    const due = collapse(dueRows);
    const out: Outgoing[] = [];
    const digests = def.digests !== false && due.length > DIGEST_THRESHOLD;
    for (let i = 0; i < due.length; ) {
        const firstTest = due.findIndex((p, j) => j >= i && p.row.kind === 'test');
        const run = due.slice(i, firstTest < 0 ? due.length : firstTest);
        if (digests && run.length >= 2) {
            const taken = digestOf(def, run);
            out.push(taken.out);
            i += taken.count;
            continue;
        }
        const p = due[i];
        if (!p) break;
        out.push({ rows: p.rows, message: renderRow(def, p, publicUrl), what: `Notification (${p.row.kind})` });
        i++;
    }
    return out;
}

/** One digest for as many whole planned messages at the start of `run` as it has room for, at least one. */
function digestOf(def: ChannelDefinition, run: Planned[]): { out: Outgoing; count: number } {
    const lines = run.flatMap((p) => p.rows);
    const digest = def.renderDigest(lines);
    // A digest stands for whole planned messages; the rows it leaves out start the next one.
    let covered = 0;
    let taken = 0;
    while (taken < run.length && covered + (run[taken]?.rows.length ?? 0) <= digest.count) {
        covered += run[taken]?.rows.length ?? 0;
        taken++;
    }
    taken = Math.max(1, taken);
    const rows = run.slice(0, taken).flatMap((p) => p.rows);
    const message = rows.length === lines.length ? digest.message : def.renderDigest(rows).message;
    return { out: { rows, message, what: `Digest of ${rows.length} notifications` }, count: taken };
}

/**
 * Folds each reminder into an earlier due row of the same incident (its alert, or an earlier reminder): reminders
 * that fell due while the destination could not be reached go out as one message saying the incident is still
 * failing, never as a burst. Rows released together for a server (server-hold.ts) become one message per group
 * key: its alerts and reminders one SERVER DOWN (or SERVER STILL DOWN), its recoveries one SERVER UP.
 */
function collapse(due: Row[]): Planned[] {
    const out: Planned[] = [];
    const openByIncident = new Map<string, Planned>();
    const byGroup = new Map<string, Planned>();
    for (const row of due) {
        const payload = parsePayload(row.payload);
        const record =
            payload && payload.kind !== 'test' && !isNotice(payload) && !isServerGroup(payload) ? payload : null;
        const grouped = record?.kind === 'alert' || record?.kind === 'reminder' || record?.kind === 'recovery';
        if (record && row.groupKey && grouped) {
            // A group's recoveries are never folded into its alerts: SERVER UP is a message of its own.
            const key = `${row.groupKey}/${record.kind === 'recovery' ? 'up' : 'down'}`;
            const group = byGroup.get(key)?.group;
            if (group) {
                byGroup.get(key)?.rows.push(row);
                addToGroup(group.records, record);
                continue;
            }
            const planned: Planned = { row, rows: [row], record, group: { key: row.groupKey, records: [record] } };
            byGroup.set(key, planned);
            out.push(planned);
            continue;
        }
        const earlier = record ? openByIncident.get(record.incidentId) : undefined;
        if (record && earlier?.record && record.kind === 'reminder') {
            earlier.rows.push(row);
            earlier.record = stillFailing(earlier.record, record);
            continue;
        }
        const planned: Planned = { row, rows: [row], record };
        out.push(planned);
        if (record && (record.kind === 'alert' || record.kind === 'reminder' || record.kind === 'flapping'))
            openByIncident.set(record.incidentId, planned);
        else if (record) openByIncident.delete(record.incidentId);
    }
    return out;
}

/** `earlier` standing for a later reminder of its incident too. */
const stillFailing = (earlier: NotificationRecord, reminder: NotificationRecord): NotificationRecord => ({
    ...earlier,
    stillFailing: { at: reminder.at, reminders: (earlier.stillFailing?.reminders ?? 0) + 1 },
});

/** A group's record of one more row: a later reminder of a monitor it already names is folded into its entry. */
function addToGroup(records: NotificationRecord[], record: NotificationRecord): void {
    const i = records.findIndex((r) => r.incidentId === record.incidentId);
    const same = records[i];
    if (!same || record.kind !== 'reminder') records.push(record);
    else records[i] = same.kind === 'reminder' ? record : stillFailing(same, record);
}

function renderRow(def: ChannelDefinition, p: Planned, publicUrl: string | null): unknown {
    if (p.group) return def.render(groupRecord(p.group.key, p.group.records, publicUrl));
    if (p.record) return def.render(withLink(p.record, publicUrl));
    const payload = parsePayload(p.row.payload);
    // Tests and notices (of a channel or a probe) are rendered as they are: they stand for no incident of a monitor.
    if (payload && (payload.kind === 'test' || isNotice(payload))) return def.render(payload);
    return def.renderText(p.row.text);
}

/** What a group's rows make, by the kind of its first row (collapse keeps recoveries apart from the others). */
const GROUP_KINDS: Partial<Record<NotificationRecord['kind'], ServerGroupRecord['kind']>> = {
    alert: 'server-down',
    reminder: 'server-still-down',
    recovery: 'server-up',
};

/**
 * The message of a server's group: one SERVER DOWN (SERVER STILL DOWN, SERVER UP) for two or more monitors; for one
 * (the others' rows went to other channels, recovered earlier, or did not remind in time) its own message, keyed by
 * the group for PagerDuty.
 */
function groupRecord(
    key: string,
    records: NotificationRecord[],
    publicUrl: string | null
): NotificationRecord | ServerGroupRecord {
    const [first] = records;
    if (!first) throw new Error('A server group without rows');
    if (records.length === 1) return { ...withLink(first, publicUrl), group: key };
    const lead = records.reduce((a, b) => (b.since < a.since ? b : a));
    return {
        kind: GROUP_KINDS[first.kind] ?? 'server-down',
        group: key,
        server: first.subject.server ?? { id: 0, name: '—' },
        configuration: first.subject.configuration,
        members: records,
        since: lead.since,
        at: Math.max(...records.map((r) => r.at)),
        ...(publicUrl ? { url: withLink(lead, publicUrl).url } : {}),
    };
}
