/**
 * What becomes of the rows held for their server (server-hold.ts), as a pure function of what the database says.
 *
 *   held alerts of a server (key server/<id>)      → decision
 *   another monitor of it healthy, checked after    → each alone, now    (one monitor failing: the usual ALERT)
 *     the first held alert was raised
 *   every enabled monitor of it in Error (≥ 2),     → one group, now     (SERVER DOWN naming them)
 *     held alerts of ≥ 2 monitors
 *   every enabled monitor in Error, held alerts of  → alone, now
 *     one monitor (the others alerted earlier, or
 *     are silenced)
 *   the window ended; the others not in Error are   → wait, up to HOLD_CAP_MS after the first alert: they are on
 *     all in Warning since the first alert              their way to Error (a URL check's allowed attempts)
 *   the window ended otherwise, or the cap          → each alone, now
 *   otherwise                                       → wait
 *
 *   held reminders of a group (server/<id>/<lead>)  → decision
 *   each open, unacknowledged incident of the group → one group, now     (SERVER STILL DOWN; with one row, its own
 *     has a held reminder                                                  STILL FAILING)
 *   the window ended                                → one group, now     (those that came: one alone, two or more
 *                                                                          as SERVER STILL DOWN)
 *   otherwise                                       → wait
 *
 *   held recoveries of a group (server/<id>/<lead>) → decision
 *   every incident of the group closed              → one group, now     (SERVER UP; with one row, a RECOVERED that
 *                                                                          still resolves the group's page)
 *   the window ended                                → each alone, now
 *   otherwise                                       → wait
 *
 * A monitor in Error that sends nothing (silenced, in maintenance, held by a chain halt) still counts as failing:
 * its server is down all the same, and the message names the monitors it stands for.
 */

/** The longest an alert is held, whatever the server's monitors are doing. */
export const HOLD_CAP_MS = 3 * 60_000;

export interface HeldRow {
    id: number;
    /** Its group key: `server/<id>` for a held alert, `server/<id>/<lead incident>` for a held reminder or recovery. */
    key: string;
    monitorId: number;
    incidentId: string;
    kind: string;
    /** When the engine raised it (ms). */
    at: number;
    /** When its window ends (ms). */
    until: number;
}

/** An enabled monitor of a server with held rows, as its health row says. */
export interface Sibling {
    id: number;
    serverId: number;
    level: 'ok' | 'warning' | 'error';
    checkedAt: number | null;
}

/** An incident whose alert went out in a group, whether it is closed, and whether someone took it on. */
export interface Member {
    key: string;
    incidentId: string;
    closed: boolean;
    acknowledged: boolean;
}

/** Rows to release together: `groupKey` null sends each alone, else they go out as one message. */
export interface Release {
    ids: number[];
    groupKey: string | null;
}

export function decideHold(rows: HeldRow[], siblings: Sibling[], members: Member[], nowMs: number): Release[] {
    // A group's held reminders and its held recoveries are decided apart: they share the group's key.
    const byKey = new Map<string, HeldRow[]>();
    for (const r of rows) {
        const of = `${r.key} ${r.kind === 'reminder' ? 'reminder' : ''}`;
        byKey.set(of, [...(byKey.get(of) ?? []), r]);
    }
    const out: Release[] = [];
    for (const held of byKey.values()) {
        const first = held[0];
        if (!first) continue;
        const key = first.key;
        const decided =
            key.split('/').length !== 3
                ? alerts(key, held, siblings, nowMs)
                : first.kind === 'reminder'
                  ? reminders(key, held, members, nowMs)
                  : recoveries(key, held, members, nowMs);
        if (decided) out.push(decided);
    }
    return out;
}

function alerts(key: string, held: HeldRow[], siblings: Sibling[], nowMs: number): Release | null {
    const serverId = Number(key.split('/')[1]);
    const on = siblings.filter((s) => s.serverId === serverId);
    const ids = held.map((r) => r.id);
    const first = [...held].sort((a, b) => a.at - b.at || a.id - b.id)[0];
    if (!first) return null;
    const since = first.at;
    const alone = { ids, groupKey: null };
    if (on.some((s) => s.level === 'ok' && (s.checkedAt ?? 0) >= since)) return alone;
    if (on.length >= 2 && on.every((s) => s.level === 'error')) {
        const monitors = new Set(held.map((r) => r.monitorId));
        return monitors.size >= 2 ? { ids, groupKey: `${key}/${first.incidentId}` } : alone;
    }
    if (nowMs < Math.min(...held.map((r) => r.until))) return null;
    const onTheWay = on.every((s) => s.level === 'error' || (s.level === 'warning' && (s.checkedAt ?? 0) >= since));
    return onTheWay && nowMs < since + HOLD_CAP_MS ? null : alone;
}

function recoveries(key: string, held: HeldRow[], members: Member[], nowMs: number): Release | null {
    const ids = held.map((r) => r.id);
    const of = members.filter((m) => m.key === key);
    if (of.length > 0 && of.every((m) => m.closed)) return { ids, groupKey: key };
    return nowMs >= Math.min(...held.map((r) => r.until)) ? { ids, groupKey: null } : null;
}

function reminders(key: string, held: HeldRow[], members: Member[], nowMs: number): Release | null {
    const ids = held.map((r) => r.id);
    const reminded = new Set(held.map((r) => r.incidentId));
    const failing = members.filter((m) => m.key === key && !m.closed && !m.acknowledged);
    if (failing.every((m) => reminded.has(m.incidentId))) return { ids, groupKey: key };
    return nowMs >= Math.min(...held.map((r) => r.until)) ? { ids, groupKey: key } : null;
}
