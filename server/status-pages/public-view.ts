import { and, asc, desc, eq, gte, inArray, or } from 'drizzle-orm';
import { monitorHealth } from '../../common/health';
import type { IncidentUpdateStatus, PublicIncident, PublicStatus, PublicStatusAnswer } from '../../common/status-pages';
import type { Db } from '../db/client';
import { incidents, incidentUpdates, monitors } from '../db/schema';
import { dailyUptime, lastDays } from '../history/daily-uptime';
import { uptimePercent } from '../history/uptime';
import { listWindows } from '../silences/windows';
import type { PageWithMonitors } from './pages';

export const PAGE_DAYS = 90;
const DAY_MS = 86_400_000;
const RANK: Record<PublicStatus, number> = { operational: 0, degraded: 1, down: 2 };

const worst = (all: PublicStatus[]): PublicStatus =>
    all.reduce<PublicStatus>((w, s) => (RANK[s] > RANK[w] ? s : w), 'operational');

/**
 * What a visitor of a page may know: component names, their state and uptime, the incidents of those components
 * with the updates the company posted, and maintenance. Built from names only — never an address, an error text,
 * a chain endpoint or an internal id — so nothing here can leak what the console keeps for its members.
 */
export async function publicView(db: Db, page: PageWithMonitors, nowMs = Date.now()): Promise<PublicStatusAnswer> {
    const ids = page.monitors.map((m) => m.monitorId);
    const rows = ids.length
        ? await db
              .select({
                  id: monitors.id,
                  name: monitors.name,
                  status: monitors.status,
                  lastError: monitors.lastError,
                  configurationId: monitors.configurationId,
                  serverId: monitors.serverId,
              })
              .from(monitors)
              .where(inArray(monitors.id, ids))
        : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const names = new Map(page.monitors.map((m) => [m.monitorId, m.displayName || byId.get(m.monitorId)?.name || '']));
    const counts = await dailyUptime(db, ids, PAGE_DAYS, nowMs);
    const days = lastDays(PAGE_DAYS, nowMs);

    const components = page.monitors.flatMap(({ monitorId }) => {
        const m = byId.get(monitorId);
        if (!m) return [];
        const health = monitorHealth({ status: m.status, last_error: m.lastError });
        const status: PublicStatus = health === 'error' ? 'down' : health === 'warning' ? 'degraded' : 'operational';
        const byDay = counts.get(monitorId);
        let up = 0;
        let total = 0;
        for (const c of byDay?.values() ?? []) {
            up += c.up;
            total += c.total;
        }
        return [
            {
                name: names.get(monitorId) ?? m.name,
                status,
                uptime_90d: uptimePercent(total ? { up, total } : undefined),
                days: days.map((date) => ({ date, uptime: uptimePercent(byDay?.get(date)) })),
            },
        ];
    });

    return {
        title: page.row.title,
        description: page.row.description,
        status: worst(components.map((c) => c.status)),
        components,
        incidents: await pageIncidents(db, ids, names, nowMs),
        maintenance: await pageMaintenance(db, page, rows, nowMs),
    };
}

async function pageIncidents(
    db: Db,
    ids: number[],
    names: Map<number, string>,
    nowMs: number
): Promise<PublicIncident[]> {
    if (ids.length === 0) return [];
    const since = new Date(nowMs - PAGE_DAYS * DAY_MS);
    const found = await db
        .select({
            id: incidents.id,
            monitorId: incidents.monitorId,
            severity: incidents.severity,
            status: incidents.status,
            openedAt: incidents.openedAt,
            closedAt: incidents.closedAt,
        })
        .from(incidents)
        .where(
            and(
                eq(incidents.kind, 'monitor'),
                inArray(incidents.monitorId, ids),
                or(eq(incidents.status, 'open'), gte(incidents.openedAt, since))
            )
        )
        .orderBy(desc(incidents.openedAt))
        .limit(200);
    const updates = found.length
        ? await db
              .select()
              .from(incidentUpdates)
              .where(
                  inArray(
                      incidentUpdates.incidentId,
                      found.map((i) => i.id)
                  )
              )
              .orderBy(asc(incidentUpdates.id))
        : [];
    return found.map((i) => {
        const own = updates.filter((u) => u.incidentId === i.id);
        const latest = own.at(-1)?.status as IncidentUpdateStatus | undefined;
        const name = names.get(i.monitorId ?? 0) ?? '';
        const resolved = i.status === 'closed';
        return {
            title: `${name} ${i.severity === 'warning' ? 'degraded' : 'outage'}`,
            status: resolved ? 'resolved' : latest && latest !== 'resolved' ? latest : 'investigating',
            started_at: i.openedAt.toISOString(),
            ...(resolved && i.closedAt ? { resolved_at: i.closedAt.toISOString() } : {}),
            updates: own
                .slice()
                .reverse()
                .map((u) => ({ status: u.status, text: u.text, at: u.createdAt.toISOString() })),
        };
    });
}

async function pageMaintenance(
    db: Db,
    page: PageWithMonitors,
    rows: { configurationId: number; serverId: number | null }[],
    nowMs: number
): Promise<PublicStatusAnswer['maintenance']> {
    if (rows.length === 0) return [];
    const configs = new Set(rows.map((r) => r.configurationId));
    const servers = new Set(rows.flatMap((r) => (r.serverId === null ? [] : [r.serverId])));
    const windows = await listWindows(db, page.row.companyId);
    return windows
        .filter(
            (w) =>
                w.next_starts_at !== null &&
                w.next_ends_at !== null &&
                Date.parse(w.next_ends_at) > nowMs &&
                ((w.configuration_id !== null && configs.has(w.configuration_id)) ||
                    (w.server_id !== null && servers.has(w.server_id)))
        )
        .map((w) => ({ starts_at: w.next_starts_at as string, ends_at: w.next_ends_at as string, reason: w.reason }))
        .sort((a, b) => a.starts_at.localeCompare(b.starts_at));
}
