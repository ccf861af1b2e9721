import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Incident, IncidentStats, IncidentTimelineEntry, OpenIncidentRef } from '../../common/incidents';
import type { Db } from '../db/client';
import { incidentEvents, incidents, monitorStates, notificationChannels, outbox } from '../db/schema';
import type { IncidentRow } from '../db/schema';
import { notFound } from '../errors';
import { inScope, type Scope } from '../repositories/scope';
import { RECOVERY_HELD, sqlNow } from './record';
import { utc } from '../../common/duration';

/** The list's filter (react-admin `filter` JSON), already validated. */
export interface IncidentFilter {
    status?: 'open' | 'closed';
    configuration_id?: number;
    monitor_id?: number;
    server_id?: number;
}

/** Seconds from opening to closing, or to `nowMs` while open. */
const durationSql = (nowMs: number) =>
    sql<number>`extract(epoch from (coalesce(${incidents.closedAt}, ${sqlNow(nowMs)}) - ${incidents.openedAt}))`;

/** Fields the list sorts by, each an SQL expression. */
export const SORTABLE: Record<string, (nowMs: number) => SQL | typeof incidents.id> = {
    id: () => incidents.id,
    status: () => sql`${incidents.status}`,
    severity: () => sql`${incidents.severity}`,
    opened_at: () => sql`${incidents.openedAt}`,
    acknowledged_at: () => sql`${incidents.acknowledgedAt}`,
    closed_at: () => sql`${incidents.closedAt}`,
    duration_seconds: durationSql,
    configuration_id: () => sql`${incidents.configurationId}`,
    configuration_name: () => sql`lower(${incidents.configurationName})`,
    monitor_id: () => sql`${incidents.monitorId}`,
    monitor_name: () => sql`lower(${incidents.monitorName})`,
    server_name: () => sql`lower(${incidents.serverName})`,
};

function where(scope: Scope, f: IncidentFilter): SQL | undefined {
    return and(
        inScope(incidents.companyId, scope),
        f.status ? eq(incidents.status, f.status) : undefined,
        f.configuration_id ? eq(incidents.configurationId, f.configuration_id) : undefined,
        f.monitor_id ? eq(incidents.monitorId, f.monitor_id) : undefined,
        f.server_id ? eq(incidents.serverId, f.server_id) : undefined
    );
}

function toIncident(r: IncidentRow, nowMs: number): Incident {
    const end = r.closedAt?.getTime() ?? nowMs;
    return {
        id: r.id,
        status: r.status,
        severity: r.severity,
        kind: r.kind,
        monitor_id: r.monitorId,
        server_id: r.serverId,
        configuration_id: r.configurationId,
        monitor_name: r.monitorName,
        server_name: r.serverName,
        configuration_name: r.configurationName,
        message: r.message,
        opened_at: r.openedAt.toISOString(),
        acknowledged_at: r.acknowledgedAt?.toISOString() ?? null,
        acknowledged_by: r.acknowledgedBy,
        acknowledged_via: r.acknowledgedVia,
        closed_at: r.closedAt?.toISOString() ?? null,
        duration_seconds: Math.max(0, Math.round((end - r.openedAt.getTime()) / 1000)),
    };
}

/** One page of the caller's incidents, filtered and sorted in SQL, with the total the filter matches. */
export async function listIncidents(
    db: Db,
    scope: Scope,
    filter: IncidentFilter,
    sort: { field: string; order: 'ASC' | 'DESC' },
    range: { start: number; end: number },
    nowMs: number
): Promise<{ rows: Incident[]; total: number }> {
    const by = (SORTABLE[sort.field] ?? SORTABLE.opened_at)?.(nowMs) ?? incidents.openedAt;
    const order = sort.order === 'ASC' ? asc : desc;
    const rows = await db
        .select()
        .from(incidents)
        .where(where(scope, filter))
        .orderBy(sql`${order(by)} nulls last`, order(incidents.id))
        .limit(range.end - range.start + 1)
        .offset(range.start);
    const [total] = await db.select({ n: count() }).from(incidents).where(where(scope, filter));
    return { rows: rows.map((r) => toIncident(r, nowMs)), total: total?.n ?? 0 };
}

/** MTTA and MTTR over every incident the filter matches, in one query. */
export async function incidentStats(db: Db, scope: Scope, filter: IncidentFilter): Promise<IncidentStats> {
    const [row] = await db
        .select({
            count: count(),
            acknowledged: count(incidents.acknowledgedAt),
            closed: count(incidents.closedAt),
            mtta: sql<string | null>`avg(extract(epoch from (${incidents.acknowledgedAt} - ${incidents.openedAt})))`,
            mttr: sql<string | null>`avg(extract(epoch from (${incidents.closedAt} - ${incidents.openedAt})))`,
        })
        .from(incidents)
        .where(where(scope, filter));
    const seconds = (v: string | number | null | undefined) =>
        v === null || v === undefined ? null : Math.max(0, Math.round(Number(v)));
    return {
        count: row?.count ?? 0,
        acknowledged: row?.acknowledged ?? 0,
        closed: row?.closed ?? 0,
        mtta_seconds: seconds(row?.mtta),
        mttr_seconds: seconds(row?.mttr),
    };
}

/** The caller's incident, or 404 (another company's too). */
export async function findIncident(db: Db, scope: Scope, id: string): Promise<IncidentRow> {
    const [row] = await db
        .select()
        .from(incidents)
        .where(and(eq(incidents.id, id), inScope(incidents.companyId, scope)));
    if (!row) throw notFound('Incident');
    return row;
}

const KIND_WORDS: Record<string, string> = {
    alert: 'Alert',
    reminder: 'Reminder',
    recovery: 'Recovery',
    flapping: 'Flapping message',
    'chain-stalled': 'Chain stalled message',
    'chain-resumed': 'Chain resumed message',
    acknowledged: 'Acknowledgement',
};

/** The incident with its timeline: its events, and each notification's delivery per channel (outbox rows). */
export async function getIncident(db: Db, scope: Scope, id: string, nowMs: number): Promise<Incident> {
    const row = await findIncident(db, scope, id);
    const events = await db
        .select()
        .from(incidentEvents)
        .where(eq(incidentEvents.incidentId, id))
        .orderBy(asc(incidentEvents.id));
    const deliveries = await db
        .select({
            kind: outbox.kind,
            channelId: outbox.channelId,
            channelName: notificationChannels.name,
            channelType: notificationChannels.type,
            status: outbox.status,
            attempts: outbox.attempts,
            lastError: outbox.lastError,
            createdAt: outbox.createdAt,
            sentAt: outbox.sentAt,
        })
        .from(outbox)
        .leftJoin(notificationChannels, eq(notificationChannels.id, outbox.channelId))
        .where(eq(outbox.incidentId, id))
        .orderBy(asc(outbox.id));
    const timeline: (IncidentTimelineEntry & { order: number })[] = [
        ...events.map((e, i) => {
            const until = e.kind === RECOVERY_HELD ? e.text.split(' ').at(-1) : undefined;
            return {
                at: e.at.toISOString(),
                kind: e.kind,
                ...(e.channelId !== null ? { channel_id: e.channelId } : {}),
                text: until ? `RECOVERED held until ${utc(Date.parse(until))}` : e.text,
                ...(until ? { until } : {}),
                order: i,
            };
        }),
        ...deliveries.map((d, i) => {
            const channel = d.channelName ? `${d.channelName} (${d.channelType})` : `deleted channel #${d.channelId}`;
            const what = KIND_WORDS[d.kind] ?? d.kind;
            const text =
                d.status === 'sent'
                    ? `${what} sent to ${channel}`
                    : d.status === 'failed'
                      ? `${what} to ${channel} failed: ${d.lastError ?? 'unknown error'}`
                      : d.status === 'held'
                        ? `${what} to ${channel} held while the outbox sees whether its whole server is down`
                        : `${what} to ${channel} waiting${d.attempts ? ` (${d.attempts} attempts, last: ${d.lastError ?? 'unknown error'})` : ''}`;
            return {
                at: (d.sentAt ?? d.createdAt).toISOString(),
                kind: d.kind,
                channel_id: d.channelId,
                ...(d.channelName ? { channel_name: d.channelName } : {}),
                // A held row is waiting too, only for another reason (its text says which).
                result: d.status === 'held' ? 'pending' : d.status,
                text,
                order: events.length + i,
            };
        }),
    ];
    // By time; at equal times what happened comes before where it was delivered.
    timeline.sort((a, b) => a.at.localeCompare(b.at) || a.order - b.order);
    return { ...toIncident(row, nowMs), timeline: timeline.map(({ order: _, ...entry }) => entry) };
}

/**
 * The open incident each monitor is part of: its own, or the chain halt it is a member of (from the engine's saved
 * alert state). Callers pass monitor ids they have already scoped.
 */
export async function openIncidentsOf(db: Db, monitorIds: number[]): Promise<Map<number, OpenIncidentRef>> {
    const out = new Map<number, OpenIncidentRef>();
    if (monitorIds.length === 0) return out;
    const rows = await db
        .select({
            monitorId: monitorStates.monitorId,
            id: incidents.id,
            openedAt: incidents.openedAt,
            acknowledgedBy: incidents.acknowledgedBy,
        })
        .from(monitorStates)
        .innerJoin(
            incidents,
            sql`${incidents.id} in (${monitorStates.state}->'alert'->'chain'->>'id', ${monitorStates.state}->'alert'->>'incidentId')`
        )
        .where(and(inArray(monitorStates.monitorId, monitorIds), eq(incidents.status, 'open')));
    for (const r of rows) {
        const known = out.get(r.monitorId);
        // A chain halt wins over the member's own (never announced) one: it opened first and is what was sent.
        if (!known || r.openedAt.toISOString() < known.opened_at)
            out.set(r.monitorId, {
                id: r.id,
                opened_at: r.openedAt.toISOString(),
                acknowledged_by: r.acknowledgedBy,
            });
    }
    return out;
}
