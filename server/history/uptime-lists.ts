import { and, eq, type SQL } from 'drizzle-orm';
import type { Monitor, UptimeAnswer } from '../../common/entities';
import type { Db } from '../db/client';
import { configurations, monitors } from '../db/schema';
import { inScope, type Scope } from '../repositories/scope';
import { type UptimeCount, uptime30d, uptimePercent } from './uptime';

/** The monitors with `uptime_30d` beside their fields: one query for the whole list. */
export async function withUptime<M extends Pick<Monitor, 'id'>>(
    db: Db,
    list: M[]
): Promise<(M & { uptime_30d: number | null })[]> {
    const counts = await uptime30d(
        db,
        list.map((m) => m.id)
    );
    return list.map((m) => ({ ...m, uptime_30d: uptimePercent(counts.get(m.id)) }));
}

/** 30-day uptime of every visible monitor and configuration (a configuration's = all its monitors' checks). */
export async function uptimeOf(db: Db, scope: Scope, configurationId?: number): Promise<UptimeAnswer> {
    const where: SQL | undefined = and(
        inScope(configurations.companyId, scope),
        configurationId === undefined ? undefined : eq(configurations.id, configurationId)
    );
    const rows = await db
        .select({ id: monitors.id, configurationId: monitors.configurationId })
        .from(monitors)
        .innerJoin(configurations, eq(configurations.id, monitors.configurationId))
        .where(where);
    const configs = await db.select({ id: configurations.id }).from(configurations).where(where);
    const counts = await uptime30d(
        db,
        rows.map((r) => r.id)
    );
    const byConfig = new Map<number, UptimeCount>(configs.map((c) => [c.id, { up: 0, total: 0 }]));
    for (const r of rows) {
        const c = counts.get(r.id);
        const sum = byConfig.get(r.configurationId);
        if (c && sum) {
            sum.up += c.up;
            sum.total += c.total;
        }
    }
    return {
        monitors: rows.map((r) => ({ id: r.id, uptime_30d: uptimePercent(counts.get(r.id)) })),
        configurations: [...byConfig].map(([id, c]) => ({ id, uptime_30d: uptimePercent(c) })),
    };
}
