import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bytes, dayOf, hex } from './days';
import { packSeries, unpackSeries } from './packed';
import { DISK_BUCKET_MS } from './rollup';
import { rowsOf } from './rows';

/** One disk reading of a mountpoint: its 15-minute bucket and used %. */
export interface DiskReading {
    serverId: number;
    mountpoint: string;
    t: number;
    usedPercent: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The readings of these servers from `fromMs` to `toMs`: packed days and the rows not packed yet alike. */
export async function diskReadings(db: Db, serverIds: number[], fromMs: number, toMs: number): Promise<DiskReading[]> {
    if (serverIds.length === 0) return [];
    const ids = sql.raw(serverIds.map((id) => Math.trunc(id)).join(','));
    const rows = await rowsOf(
        db,
        sql`select server_id, mountpoint, extract(epoch from bucket) * 1000 as t, used_percent from disk_history
            where server_id in (${ids}) and bucket >= ${iso(fromMs)} and bucket < ${iso(toMs)}`
    );
    const out = rows.map((r) => ({
        serverId: Number(r.server_id),
        mountpoint: String(r.mountpoint),
        t: Number(r.t),
        usedPercent: Number(r.used_percent),
    }));
    const days = await rowsOf(
        db,
        sql`select server_id, mountpoint, extract(epoch from day) * 1000 as day_ms, used from disk_days
            where server_id in (${ids}) and day >= ${iso(dayOf(fromMs))} and day < ${iso(toMs)}`
    );
    for (const d of days) out.push(...unpackDay(d).filter((r) => r.t >= fromMs && r.t < toMs));
    return out.sort((a, b) => a.t - b.t);
}

function unpackDay(row: Record<string, unknown>): DiskReading[] {
    const packed = bytes(row.used);
    if (!packed) return [];
    return unpackSeries(packed, Number(row.day_ms), DISK_BUCKET_MS).map((p) => ({
        serverId: Number(row.server_id),
        mountpoint: String(row.mountpoint),
        t: p.t,
        usedPercent: p.v,
    }));
}

/**
 * Moves the disk_history rows of these servers before `edge` into disk_days, merged with what a day held, in the
 * caller's transaction. `before` bounds the rows (whole days) when there are too many for one step.
 */
export async function packDiskDays(db: Db, serverIds: number[], edge: number, before: SQL): Promise<number> {
    const ids = sql.raw(serverIds.join(','));
    const moved = (
        await rowsOf(
            db,
            sql`delete from disk_history where server_id in (${ids}) and bucket < ${iso(edge)} ${before}
                returning server_id, mountpoint, extract(epoch from bucket) * 1000 as t, used_percent`
        )
    ).map((r) => ({
        serverId: Number(r.server_id),
        mountpoint: String(r.mountpoint),
        t: Number(r.t),
        usedPercent: Number(r.used_percent),
    }));
    if (moved.length === 0) return 0;
    const days = new Map<string, { serverId: number; mountpoint: string; day: number; points: Map<number, number> }>();
    const add = (r: DiskReading) => {
        const day = dayOf(r.t);
        const key = `${r.serverId}\u0000${r.mountpoint}\u0000${day}`;
        let d = days.get(key);
        if (!d) {
            d = { serverId: r.serverId, mountpoint: r.mountpoint, day, points: new Map() };
            days.set(key, d);
        }
        // A row written after its day was packed is the later reading of its bucket.
        d.points.set(r.t, r.usedPercent);
    };
    const list = [...new Set(moved.map((r) => `${r.serverId}\u0000${r.mountpoint}\u0000${dayOf(r.t)}`))].map((k) =>
        k.split('\u0000')
    );
    const old = await rowsOf(
        db,
        sql`select d.server_id, d.mountpoint, extract(epoch from d.day) * 1000 as day_ms, d.used
            from disk_days d join unnest(${`{${list.map((k) => k[0]).join(',')}}`}::int[],
                ${arr(list.map((k) => k[1] ?? ''))}::text[], ${`{${list.map((k) => iso(Number(k[2]))).join(',')}}`}::timestamptz[])
                as k(server_id, mountpoint, day)
                on d.server_id = k.server_id and d.mountpoint = k.mountpoint and d.day = k.day`
    );
    for (const row of old) for (const r of unpackDay(row)) add(r);
    for (const r of moved) add(r);
    const packed = [...days.values()];
    await db.execute(sql`
        insert into disk_days (server_id, mountpoint, day, used)
        select v.server_id, v.mountpoint, v.day, decode(v.used, 'hex') from unnest(
            ${`{${packed.map((d) => d.serverId).join(',')}}`}::int[], ${arr(packed.map((d) => d.mountpoint))}::text[],
            ${`{${packed.map((d) => iso(d.day)).join(',')}}`}::timestamptz[],
            ${`{${packed
                .map((d) =>
                    hex(
                        packSeries(
                            [...d.points].map(([t, v]) => ({ t, v })),
                            d.day,
                            DISK_BUCKET_MS
                        )
                    )
                )
                .join(',')}}`}::text[]
        ) as v(server_id, mountpoint, day, used)
        where exists (select 1 from servers s where s.id = v.server_id)
        on conflict (server_id, mountpoint, day) do update set used = excluded.used`);
    return moved.length;
}

/** A text[] literal: mountpoints are paths, quoted and escaped. */
const arr = (values: string[]) => `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
