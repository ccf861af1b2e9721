// History benchmark (npm run bench:history): 10,000 monitors on 100 configurations and 1,000 servers on the embedded
// database (PGlite, on disk), then history written through the engine's own write path (writeBuckets /
// writeHistory, the statements ResultWriter.flush runs): hourly rollups for --days (90) of every monitor,
// 5-minute rollups for the last --fine-days (2; 90 days of them is 259 M rows, hours to generate here: the size
// is extrapolated from bytes per row instead), raw checks for the last --raw-hours (2), disk use of --disk-servers
// (100) servers for 7 days. Then the API in process (Fastify inject, a super admin who sees every monitor):
// p50/p99 of a 30-day and a 1-year monitor chart, a server's disk history, and the dashboard with uptime
// columns; and the database size, per row and projected to steady state at 225 checks/s.
//   npm run bench:history -- [--monitors 10000] [--days 90] [--fine-days 2] [--raw-hours 2] [--requests 40]
// Not a test: the figures depend on the machine (note the load average printed with them).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../server/app';
import type { Db } from '../../server/db/client';
import { companies, configurations, monitors, servers } from '../../server/db/schema';
import { HistoryBuffer, writeBuckets, writeHistory } from '../../server/history/buffer';
import {
    type Bucket,
    type CheckSample,
    DAY_MS,
    DISK_BUCKET_MS,
    FIVE_MINUTES_MS,
    HOUR_MS,
} from '../../server/history/rollup';
import { auth, login, testConfig } from '../server/helpers';

const { values: argv } = parseArgs({
    options: {
        monitors: { type: 'string', default: '10000' },
        days: { type: 'string', default: '90' },
        'fine-days': { type: 'string', default: '2' },
        'raw-hours': { type: 'string', default: '2' },
        'disk-servers': { type: 'string', default: '100' },
        requests: { type: 'string', default: '40' },
        'database-url': { type: 'string' },
    },
});
const MONITORS = Number(argv.monitors);
const DAYS = Number(argv.days);
const FINE_DAYS = Number(argv['fine-days']);
const RAW_HOURS = Number(argv['raw-hours']);
const DISK_SERVERS = Number(argv['disk-servers']);
const REQUESTS = Number(argv.requests);
const CHECKS_PER_SECOND = 225 * (MONITORS / 10_000);
const BATCH = 20_000;

function prng(seed: number): () => number {
    let s = seed >>> 0;
    return () => {
        s = (s * 1_664_525 + 1_013_904_223) >>> 0;
        return s / 2 ** 32;
    };
}
const rand = prng(42);

async function rows(db: Db, q: ReturnType<typeof sql>): Promise<Record<string, unknown>[]> {
    return ((await db.execute(q)) as unknown as { rows: Record<string, unknown>[] }).rows;
}

/** One synthetic bucket: mostly ok, now and then an outage, latency around 120 ms, a height growing. */
function bucket(monitorId: number, start: number, checks: number): Bucket {
    const error = rand() < 0.01 ? Math.ceil(checks * rand()) : 0;
    const warning = rand() < 0.02 ? 1 : 0;
    const latency = 80 + 80 * rand();
    const height = 20_000_000 + Math.floor(start / 6000);
    return {
        monitorId,
        bucket: start,
        ok: Math.max(0, checks - error - warning),
        warning,
        error,
        latencyCount: checks,
        latencySumMs: latency * checks,
        latencyMaxMs: latency * 2,
        valueLast: height,
        valueMin: height - checks,
        valueMax: height,
    };
}

async function generate(
    db: Db,
    ids: number[],
    table: 'history_5m' | 'history_1h' | 'history_1d',
    sizeMs: number,
    fromMs: number,
    toMs: number
) {
    const started = performance.now();
    const checksPerBucket = Math.max(1, Math.round((sizeMs / 1000) * (CHECKS_PER_SECOND / ids.length)));
    let batch: Bucket[] = [];
    let written = 0;
    for (let t = Math.floor(fromMs / sizeMs) * sizeMs; t < toMs; t += sizeMs) {
        for (const id of ids) {
            batch.push(bucket(id, t, checksPerBucket));
            if (batch.length >= BATCH) {
                await writeBuckets(db, table, batch);
                written += batch.length;
                batch = [];
            }
        }
    }
    if (batch.length) await writeBuckets(db, table, batch);
    written += batch.length;
    const s = (performance.now() - started) / 1000;
    console.log(
        `  ${table}: ${written.toLocaleString()} rows in ${s.toFixed(0)} s (${Math.round(written / s).toLocaleString()} rows/s)`
    );
}

async function generateRaw(db: Db, ids: number[], fromMs: number, toMs: number) {
    const started = performance.now();
    const intervalMs = (ids.length / CHECKS_PER_SECOND) * 1000;
    let buffer = new HistoryBuffer();
    let n = 0;
    for (let t = fromMs; t < toMs; t += intervalMs) {
        for (const id of ids) {
            const s: CheckSample = {
                monitorId: id,
                t: Math.round(t + (id % 1000)),
                level: rand() < 0.01 ? 'error' : 'ok',
                latencyMs: 80 + 80 * rand(),
                value: 20_000_000 + Math.floor(t / 6000),
                message: null,
            };
            if (s.level === 'error') s.message = 'The check did not finish within 44 s';
            buffer.record(s);
            if (++n % BATCH === 0) {
                // Raw rows only: the rollups of these hours are generated above.
                const b = buffer.take(false);
                await writeHistory(db, { ...b, fiveMinute: [], hourly: [], daily: [] });
                buffer = new HistoryBuffer();
            }
        }
    }
    const b = buffer.take(false);
    await writeHistory(db, { ...b, fiveMinute: [], hourly: [], daily: [] });
    const s = (performance.now() - started) / 1000;
    console.log(
        `  check_results: ${n.toLocaleString()} rows in ${s.toFixed(0)} s (${Math.round(n / s).toLocaleString()} rows/s)`
    );
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
        console.log(
            `history for ${MONITORS.toLocaleString()} monitors (load average ${loadavg()
                .map((l) => l.toFixed(1))
                .join(' ')}):`
        );
        await generate(db, ids, 'history_1d', DAY_MS, now - DAYS * DAY_MS, now - DAY_MS);
        await generate(db, ids, 'history_1h', HOUR_MS, now - DAYS * DAY_MS, now - HOUR_MS);
        await generate(db, ids, 'history_5m', FIVE_MINUTES_MS, now - FINE_DAYS * DAY_MS, now - FIVE_MINUTES_MS);
        await generateRaw(db, ids, now - RAW_HOURS * HOUR_MS, now);
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

        const sizes = await rows(
            db,
            sql`select c.relname as name, pg_total_relation_size(c.oid) as bytes, (select count(*) from check_results where c.relname = 'check_results') as n0
                from pg_class c where c.relname in ('check_results', 'history_5m', 'history_1h', 'history_1d', 'disk_history')`
        );
        const counts: Record<string, number> = {};
        for (const t of ['check_results', 'history_5m', 'history_1h', 'history_1d', 'disk_history'])
            counts[t] = Number((await rows(db, sql.raw(`select count(*) as n from ${t}`)))[0]?.n);
        const perRow: Record<string, number> = {};
        console.log(`\n${'table'.padEnd(16)} ${'rows'.padStart(12)} ${'MB'.padStart(9)} ${'bytes/row'.padStart(10)}`);
        for (const s of sizes) {
            const name = String(s.name);
            perRow[name] = Number(s.bytes) / Math.max(1, counts[name] ?? 1);
            console.log(
                `${name.padEnd(16)} ${(counts[name] ?? 0).toLocaleString().padStart(12)} ${(Number(s.bytes) / 1e6).toFixed(1).padStart(9)} ${perRow[name]?.toFixed(1).padStart(10)}`
            );
        }
        const total = Number((await rows(db, sql`select pg_database_size(current_database()) as b`))[0]?.b);
        console.log(`database size now: ${(total / 1e6).toFixed(0)} MB`);
        // Steady state at this many monitors and checks/s, retention 48 h / 90 d / 730 d.
        const rawRows = CHECKS_PER_SECOND * 48 * 3600;
        const fiveRows = MONITORS * 288 * 90;
        const hourRowsPerDay = MONITORS * 25; // 24 hourly and one daily
        const mb = (n: number) => `${(n / 1e6).toFixed(0)} MB`;
        console.log(`\nprojected at ${MONITORS.toLocaleString()} monitors, ${CHECKS_PER_SECOND.toFixed(0)} checks/s:`);
        console.log(
            `  raw 48 h: ${Math.round(rawRows).toLocaleString()} rows, ${mb(rawRows * (perRow.check_results ?? 0))} (constant)`
        );
        console.log(
            `  5-minute 90 d: ${fiveRows.toLocaleString()} rows, ${mb(fiveRows * (perRow.history_5m ?? 0))}; while filling (first 90 days) ${mb(MONITORS * 288 * (perRow.history_5m ?? 0))}/day`
        );
        console.log(
            `  hourly: ${hourRowsPerDay.toLocaleString()} rows/day, ${mb(hourRowsPerDay * (perRow.history_1h ?? 0))}/day (the growth once raw and 5-minute are in steady state, until 2 years)`
        );
    } finally {
        await app.close();
        rmSync(dir, { recursive: true, force: true });
    }
}

main().catch((err) => {
    console.error(err);
    process.exit(1);
});
