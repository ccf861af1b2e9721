// History benchmark (npm run bench:history), scaled: --monitors (1,000) on 100 configurations on the embedded
// database (PGlite, on disk) or PostgreSQL (--database-url), with what history holds after --days (90) of checks
// a minute (outages, warnings, slow spells, heights and disk readings; tests/bench/history-sim.ts): packed days as
// the packer writes them, today's rollup rows and --raw-hours (2) of raw checks, and 7 days of disk use of
// --disk-servers (100). Then:
//  - chart and uptime requests in process (Fastify inject, a super admin), p50/p99;
//  - a short real run: --write-monitors (200) more monitors check once a minute for a whole day through the engine's
//    write path (HistoryBuffer + writeHistory in a transaction per simulated minute, what ResultWriter.flush runs),
//    then the packer packs that day. It prints bytes written per check (WAL) and the event loop's delay while it
//    writes (the engine's lateness: on PGlite the database runs on that loop), and its packed rows check the sizes
//    of the generated ones;
//  - the database size at 48 hours, 90 days and two years for 1,000 and 10,000 monitors at 60 s, projected from
//    the measured bytes per raw row, per rollup row and per packed day (sizes grow linearly with monitors).
//   npm run bench:history -- [--monitors 1000] [--days 90] [--raw-hours 2] [--write-monitors 200] [--requests 20]
// Not a test: the figures depend on the machine (note the load average printed with them).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../server/app';
import type { Db } from '../../server/db/client';
import { companies, configurations, monitors, servers } from '../../server/db/schema';
import { HistoryBuffer, writeHistory } from '../../server/history/buffer';
import { type Day, dayOf, writeDays } from '../../server/history/days';
import { HistoryPacker } from '../../server/history/packer';
import { DAY_MS, DISK_BUCKET_MS, HOUR_MS } from '../../server/history/rollup';
import { auth, login, testConfig } from '../server/helpers';
import { prng, SimMonitor } from './history-sim';

const { values: argv } = parseArgs({
    options: {
        monitors: { type: 'string', default: '1000' },
        days: { type: 'string', default: '90' },
        'raw-hours': { type: 'string', default: '2' },
        'disk-servers': { type: 'string', default: '100' },
        'write-monitors': { type: 'string', default: '200' },
        requests: { type: 'string', default: '20' },
        'database-url': { type: 'string' },
    },
});
const MONITORS = Number(argv.monitors);
const DAYS = Number(argv.days);
const RAW_HOURS = Number(argv['raw-hours']);
const DISK_SERVERS = Number(argv['disk-servers']);
const WRITE_MONITORS = Number(argv['write-monitors']);
const REQUESTS = Number(argv.requests);
const BATCH = 500;
const rand = prng(42);
const load = () =>
    `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`;

async function rows(db: Db, q: ReturnType<typeof sql>): Promise<Record<string, unknown>[]> {
    return ((await db.execute(q)) as unknown as { rows: Record<string, unknown>[] }).rows;
}
const one = async (db: Db, q: ReturnType<typeof sql>) => Number(Object.values((await rows(db, q))[0] ?? {})[0] ?? 0);

/** Packed days for the closed days back to --days, as the packer leaves them (5-minute buckets within 90 days). */
async function generateDays(db: Db, sims: SimMonitor[], nowMs: number) {
    const started = performance.now();
    const today = dayOf(nowMs);
    let batch: Day[] = [];
    let n = 0;
    for (let back = DAYS; back >= 1; back--) {
        for (const sim of sims) {
            batch.push(sim.day(today - back * DAY_MS, back <= 90));
            if (batch.length >= BATCH) {
                await writeDays(db, batch);
                n += batch.length;
                batch = [];
            }
        }
    }
    await writeDays(db, batch);
    n += batch.length;
    console.log(
        `  history_days: ${n.toLocaleString()} packed days in ${((performance.now() - started) / 1000).toFixed(0)} s`
    );
}

/** Today so far through the engine's write path: rollup rows, and raw checks for the last --raw-hours. */
async function generateToday(db: Db, sims: SimMonitor[], nowMs: number) {
    const started = performance.now();
    const rawFrom = nowMs - RAW_HOURS * HOUR_MS;
    let buffer = new HistoryBuffer();
    let n = 0;
    for (let t = dayOf(nowMs); t < nowMs - 60_000; t += 60_000) {
        for (const sim of sims) buffer.record(sim.check(t + (sim.id % 60) * 1000));
        n += sims.length;
        if (n % 20_000 < sims.length || t + 120_000 >= nowMs) {
            const b = buffer.take(t + 120_000 >= nowMs);
            await writeHistory(db, { ...b, raw: b.raw.filter((s) => s.t >= rawFrom) });
            buffer = new HistoryBuffer();
        }
    }
    console.log(`  today: ${n.toLocaleString()} checks in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

async function generateDisks(db: Db, serverIds: number[], nowMs: number) {
    const values: string[] = [];
    for (const id of serverIds) {
        const rate = rand() * 2; // % a day
        for (let t = nowMs - 7 * DAY_MS; t < nowMs; t += DISK_BUCKET_MS) {
            const b = new Date(Math.floor(t / DISK_BUCKET_MS) * DISK_BUCKET_MS).toISOString();
            values.push(
                `(${id}, '/', '${b}', 30)`,
                `(${id}, '/data', '${b}', ${(50 + (rate * (t - nowMs + 7 * DAY_MS)) / DAY_MS).toFixed(2)})`
            );
        }
    }
    for (let i = 0; i < values.length; i += BATCH)
        await db.execute(
            sql.raw(
                `insert into disk_history (server_id, mountpoint, bucket, used_percent) values ${values.slice(i, i + BATCH).join(',')} on conflict do nothing`
            )
        );
    console.log(`  disk_history: ${values.length.toLocaleString()} rows`);
}

const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};

/** WAL position in bytes (PGlite and PostgreSQL both answer it). */
const wal = (db: Db) => one(db, sql`select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') as b`);

/** The short real run: a day of checks a minute through the write path, then the packer on that day. */
async function realRun(db: Db, app: Awaited<ReturnType<typeof buildApp>>['app'], cfgId: number, nowMs: number) {
    const ids = (
        await db
            .insert(monitors)
            .values(
                Array.from({ length: WRITE_MONITORS }, (_, i) => ({
                    configurationId: cfgId,
                    name: `w-${i}`,
                    type: 'blockCheck' as const,
                    configurationObject: '{}',
                }))
            )
            .returning({ id: monitors.id })
    ).map((r) => r.id);
    const sims = ids.map((id) => new SimMonitor(id, prng(id)));
    const day = dayOf(nowMs) - 2 * DAY_MS;
    const buffer = new HistoryBuffer();
    const eld = monitorEventLoopDelay({ resolution: 10 });
    const wal0 = await wal(db);
    eld.enable();
    const started = performance.now();
    let checks = 0;
    for (let minute = 0; minute < 1440; minute++) {
        for (const sim of sims) buffer.record(sim.check(day + minute * 60_000 + (sim.id % 60) * 1000));
        checks += sims.length;
        const batch = buffer.take(minute === 1439);
        await db.transaction(async (tx) => writeHistory(tx as unknown as Db, batch));
    }
    eld.disable();
    const writeS = (performance.now() - started) / 1000;
    const wal1 = await wal(db);
    const packer = new HistoryPacker(db, app.ctx.config.history, app.log);
    const packStarted = performance.now();
    let steps = 0;
    let slowest = 0;
    let idle = 0;
    // Until a whole round of the monitors moved nothing.
    while (idle <= (MONITORS + WRITE_MONITORS) / 50 + 1) {
        const t0 = performance.now();
        const moved = await packer.step(nowMs);
        slowest = Math.max(slowest, performance.now() - t0);
        steps++;
        idle = moved > 0 ? 0 : idle + 1;
    }
    const wal2 = await wal(db);
    const packed = await rows(
        db,
        sql`select count(*) as n, avg(pg_column_size(d.*)) as row_bytes, avg(pg_column_size(five_minutes)) as five_bytes,
                avg(pg_column_size(hours)) as hour_bytes
            from history_days d where monitor_id >= ${ids[0] ?? 0} and day = ${new Date(day).toISOString()}`
    );
    const p = packed[0] ?? {};
    const disk = await one(db, sql`select avg(pg_column_size(d.*)) from disk_days d`);
    console.log(
        `\nshort real run (${load()}): ${WRITE_MONITORS} monitors, a check a minute for a day, ${checks.toLocaleString()} checks`
    );
    console.log(
        `  writing: ${writeS.toFixed(0)} s, ${((wal1 - wal0) / checks).toFixed(0)} bytes of WAL per check; event loop delay p50 ${(eld.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(eld.percentile(99) / 1e6).toFixed(1)} ms, max ${(eld.max / 1e6).toFixed(0)} ms`
    );
    console.log(
        `  packing: ${((performance.now() - packStarted) / 1000).toFixed(0)} s in ${steps} steps (slowest ${slowest.toFixed(0)} ms), ${((wal2 - wal1) / checks).toFixed(0)} bytes of WAL per check`
    );
    console.log(
        `  packed day: ${Number(p.n)} rows, ${Number(p.row_bytes).toFixed(0)} bytes a row (5-minute part ${Number(p.five_bytes).toFixed(0)}, hours ${Number(p.hour_bytes).toFixed(0)})`
    );
    console.log(`  packed disk day (a mountpoint, 96 readings): ${disk.toFixed(0)} bytes a row`);
    return { walPerCheck: (wal2 - wal0) / checks, rowBytes: Number(p.row_bytes) };
}

async function main() {
    const dir = mkdtempSync(join(tmpdir(), 'nm-bench-history-'));
    const { app } = await buildApp(
        testConfig({
            databaseUrl: argv['database-url'] ?? null,
            dataDir: dir,
            engineEnabled: false,
            adminPassword: 'bench-password-1',
            logLevel: 'warn',
        })
    );
    const db = app.ctx.db;
    try {
        const started = performance.now();
        const [company] = await db.insert(companies).values({ name: 'Bench' }).returning({ id: companies.id });
        const cfgIds: number[] = [];
        for (let c = 0; c < 100; c++) {
            const [cfg] = await db
                .insert(configurations)
                .values({ companyId: company?.id ?? 0, name: `cfg-${c}`, chain: 'cosmoshub' })
                .returning({ id: configurations.id });
            cfgIds.push(cfg?.id ?? 0);
        }
        const serverIds = (
            await db
                .insert(servers)
                .values(
                    Array.from({ length: MONITORS / 10 }, (_, i) => ({
                        configurationId: cfgIds[i % 100] ?? 0,
                        name: `s-${i}`,
                        address: `http://10.0.${i >> 8}.${i & 255}`,
                    }))
                )
                .returning({ id: servers.id })
        ).map((r) => r.id);
        const ids: number[] = [];
        for (let from = 0; from < MONITORS; from += 1000) {
            const batch = Array.from({ length: Math.min(1000, MONITORS - from) }, (_, k) => {
                const i = from + k;
                return {
                    configurationId: cfgIds[Math.floor(i / 10) % 100] ?? 0,
                    serverId: serverIds[Math.floor(i / 10)] ?? null,
                    name: `m-${i}`,
                    type: 'blockCheck' as const,
                    configurationObject: '{}',
                };
            });
            ids.push(...(await db.insert(monitors).values(batch).returning({ id: monitors.id })).map((r) => r.id));
        }
        const now = Date.now();
        const sims = ids.map((id) => new SimMonitor(id, prng(id)));
        console.log(`history for ${MONITORS.toLocaleString()} monitors (${load()}):`);
        await generateDays(db, sims, now);
        await generateToday(db, sims, now);
        await generateDisks(db, serverIds.slice(0, DISK_SERVERS), now);
        await db.execute(sql`analyze`);
        console.log(`generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);

        const token = (await login(app, 'admin', 'bench-password-1')).access;
        const time = async (label: string, url: () => string) => {
            const ms: number[] = [];
            for (let i = 0; i < REQUESTS; i++) {
                const t0 = performance.now();
                const res = await app.inject({ method: 'GET', url: url(), headers: auth(token) });
                ms.push(performance.now() - t0);
                if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
            }
            return { label, p50: pct(ms, 50), p99: pct(ms, 99) };
        };
        const any = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)] as T;
        const iso = (ms: number) => new Date(ms).toISOString();
        const results = [
            await time(
                'monitor chart, 30 days (+ uptime 24h/7d/30d/1y)',
                () => `/api/monitors/${any(ids)}/history?from=${iso(now - 30 * DAY_MS)}`
            ),
            await time(
                'monitor chart, 1 year (+ uptime)',
                () => `/api/monitors/${any(ids)}/history?from=${iso(now - 365 * DAY_MS)}`
            ),
            await time('monitor chart, 24 hours (raw)', () => `/api/monitors/${any(ids)}/history`),
            await time('status bar, last 100 checks', () => `/api/monitors/${any(ids)}/checks?limit=100`),
            await time(
                'server disk history, 7 days',
                () => `/api/servers/${any(serverIds.slice(0, DISK_SERVERS))}/disk-history`
            ),
            await time(
                'configuration monitors + uptime_30d (100)',
                () => `/api/configurations/${any(cfgIds)}/monitors`
            ),
            await time(`dashboard uptime, all ${MONITORS} monitors`, () => '/api/uptime'),
        ];
        console.log(`\n${'request'.padEnd(52)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`);
        for (const r of results)
            console.log(`${r.label.padEnd(52)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)}`);

        const tables = ['check_results', 'history_5m', 'history_1h', 'history_1d', 'history_days', 'disk_history'];
        const perRow: Record<string, number> = {};
        console.log(`\n${'table'.padEnd(16)} ${'rows'.padStart(12)} ${'MB'.padStart(9)} ${'bytes/row'.padStart(10)}`);
        for (const t of tables) {
            const n = await one(db, sql.raw(`select count(*) from ${t}`));
            const bytes = await one(db, sql`select pg_total_relation_size(${t}::regclass)`);
            perRow[t] = bytes / Math.max(1, n);
            console.log(
                `${t.padEnd(16)} ${n.toLocaleString().padStart(12)} ${(bytes / 1e6).toFixed(1).padStart(9)} ${perRow[t]?.toFixed(1).padStart(10)}`
            );
        }
        const withFive = await one(
            db,
            sql`select avg(pg_column_size(five_minutes)) from history_days where five_minutes is not null`
        );
        console.log(
            `database size now: ${((await one(db, sql`select pg_database_size(current_database())`)) / 1e6).toFixed(0)} MB`
        );
        const real = await realRun(db, app, cfgIds[0] ?? 0, now);

        // Standing size at 60 s per monitor: raw checks for 48 h, today's rollup rows, packed days (with 5-minute
        // buckets for 90 days, hours only beyond). Disk use per server (disk_history) is left out: it is per server.
        const fullDay = perRow.history_days ?? 0;
        const hoursDay = fullDay - withFive;
        const todayRows = 288 * (perRow.history_5m ?? 0) + 24 * (perRow.history_1h ?? 0);
        const gb = (n: number) => `${(n / 1e9).toFixed(2)} GB`;
        console.log(
            `\nbytes a packed day: ${fullDay.toFixed(0)} (with 5-minute buckets), ~${hoursDay.toFixed(0)} (hours only); the short run's ${real.rowBytes.toFixed(0)}`
        );
        console.log(`bytes written per check (WAL, writes and packing): ${real.walPerCheck.toFixed(0)}`);
        for (const m of [1000, 10_000]) {
            const raw = m * 2880 * (perRow.check_results ?? 0);
            const at = (days: number) =>
                raw + m * todayRows + m * Math.min(days, 90) * fullDay + m * Math.max(0, days - 90) * hoursDay;
            console.log(
                `${m.toLocaleString()} monitors at 60 s: 48 h ${gb(raw + m * todayRows + m * fullDay)}, 90 days ${gb(at(90))}, 2 years ${gb(at(730))} (raw checks ${gb(raw)} of it)`
            );
        }
    } finally {
        await app.close();
        rmSync(dir, { recursive: true, force: true });
    }
}

main().catch((err) => {
    console.error(err);
    process.exit(1);
});
