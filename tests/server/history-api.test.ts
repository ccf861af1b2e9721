import { sql } from 'drizzle-orm';
import { HistoryBuffer, writeHistory } from '../../server/history/buffer';
import { packLocationLevels } from '../../server/history/location-levels';
import { rowsOf } from '../../server/history/rows';
import { HistoryPruner } from '../../server/history/pruner';
import { uptime30d } from '../../server/history/uptime';
import { dailyUptime } from '../../server/history/daily-uptime';
import type { CheckSample } from '../../server/history/rollup';
import { createWorld, type World } from './config-fixtures';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

let w: World;
let url: number;
let disk: number;
let server: number;
const now = Date.now();

/** Writes checks through the engine's own path: the flush buffer, then one batched write. */
async function write(samples: CheckSample[], disks: { t: number; mounts: [string, number][] }[] = []) {
    const buffer = new HistoryBuffer();
    for (const s of samples) buffer.record(s);
    for (const d of disks)
        buffer.record(
            { monitorId: disk, t: d.t, level: 'ok', latencyMs: 5, value: null, message: null },
            {
                serverId: server,
                t: d.t,
                filesystems: d.mounts.map(([mountpoint, usedPercent]) => ({ mountpoint, usedPercent })),
            }
        );
    await writeHistory(w.t.app.ctx.db, buffer.take(true));
}

const check = (t: number, level: CheckSample['level'], extra: Partial<CheckSample> = {}): CheckSample => ({
    monitorId: url,
    t,
    level,
    latencyMs: 100,
    value: null,
    message: level === 'ok' ? null : `problem at ${new Date(t).toISOString()}`,
    ...extra,
});

beforeAll(async () => {
    w = await createWorld();
    const cfg = await w.configuration(w.admin.access, { name: 'Hub' });
    server = await w.server(w.admin.access, cfg);
    const create = async (body: object) =>
        (
            await w.call('POST', '/api/monitors', w.admin.access, { configuration_id: cfg, is_enabled: true, ...body })
        ).json().id as number;
    url = await create({ name: 'site', type: 'urlCheck', configuration_object: '{"address":"http://127.0.0.1:9/"}' });
    disk = await create({ name: 'disk', type: 'nodeExporterDiskSpace', server_id: server, configuration_object: '{}' });
    // The last hour: a check a minute, an outage of 10 minutes 30 minutes ago.
    const recent = Array.from({ length: 60 }, (_, i) => {
        const t = now - (60 - i) * MIN;
        return check(t, i >= 30 && i < 40 ? 'error' : i === 50 ? 'warning' : 'ok', {
            latencyMs: 100 + i,
            value: 1000 + i,
        });
    });
    // 40 days ago and 3 years ago, only in the rollups (raw would be pruned); written as the engine closes buckets.
    const old = [now - 40 * DAY, now - 3 * 365 * DAY].flatMap((t0) =>
        Array.from({ length: 12 }, (_, i) => check(t0 + i * 5 * MIN, i < 3 ? 'error' : 'ok', { value: i }))
    );
    await write([...old, ...recent]);
});
afterAll(() => w.t.close());

describe('GET /api/monitors/{id}/history', () => {
    it('answers the last 24 hours by minute with counts, latency, the reading and uptime', async () => {
        const day = (await w.call('GET', `/api/monitors/${url}/history`, w.plain.access)).json();
        expect(day.step_seconds).toBe(300);
        const res = await w.call(
            'GET',
            `/api/monitors/${url}/history?from=${new Date(now - HOUR).toISOString()}&to=${new Date(now).toISOString()}`,
            w.plain.access
        );
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.step_seconds).toBe(60);
        const points = body.points as { ok: number; warning: number; error: number }[];
        expect(points.reduce((n, p) => n + p.ok + p.warning + p.error, 0)).toBe(60);
        expect(points.reduce((n, p) => n + p.error, 0)).toBe(10);
        expect(points[0]).toMatchObject({
            ok: 1,
            error: 0,
            latency_avg_ms: 100,
            latency_max_ms: 100,
            value_last: 1000,
        });
        expect(Object.keys(points[0] ?? {}).sort()).toEqual(
            [
                't',
                'ok',
                'warning',
                'error',
                'latency_avg_ms',
                'latency_max_ms',
                'value_last',
                'value_min',
                'value_max',
            ].sort()
        );
        // 50 of 60 not Error (the warning counts as up); the 40-day-old checks count in the year only.
        expect(body.uptime).toEqual({
            '24h': 83.333,
            '7d': 83.333,
            '30d': 83.333,
            '1y': 81.944, // 59 of 72: the 40-day-old checks count, the 3-year-old ones not
        });
    });

    it('chooses a coarser step for longer ranges and answers what exists beyond retention', async () => {
        const from = new Date(now - 45 * DAY).toISOString();
        const month = (await w.call('GET', `/api/monitors/${url}/history?from=${from}`, w.plain.access)).json();
        expect(month.step_seconds).toBe(6 * 3600);
        const counts = month.points.map(
            (p: { ok: number; warning: number; error: number }) => p.ok + p.warning + p.error
        );
        expect(counts.reduce((a: number, b: number) => a + b, 0)).toBe(72);
        const years = await w.call(
            'GET',
            `/api/monitors/${url}/history?from=${new Date(now - 10 * 365 * DAY).toISOString()}&step=1d`,
            w.plain.access
        );
        expect(years.statusCode).toBe(200);
        const errors = years.json().points.map((p: { error: number }) => p.error);
        expect(errors.reduce((a: number, b: number) => a + b, 0)).toBe(16);
        // A 5-minute step over last month reads the 5-minute rollups: 12 buckets 40 days ago.
        const fine = (
            await w.call(
                'GET',
                `/api/monitors/${url}/history?from=${new Date(now - 41 * DAY).toISOString()}&to=${new Date(now - 39 * DAY).toISOString()}&step=5m`,
                w.plain.access
            )
        ).json();
        expect(fine.step_seconds).toBe(300);
        expect(fine.points.length).toBeGreaterThanOrEqual(12);
        expect(fine.points.at(-1).value_last).toBe(11);
    });

    it('refuses bad ranges and steps naming the field', async () => {
        const bad = async (q: string) => await w.call('GET', `/api/monitors/${url}/history?${q}`, w.plain.access);
        expect((await bad('from=yesterday')).json().errors).toHaveProperty('from');
        expect(
            (await bad(`from=${new Date(now).toISOString()}&to=${new Date(now - DAY).toISOString()}`)).statusCode
        ).toBe(400);
        expect((await bad('step=10s')).json().errors).toHaveProperty('step');
        expect((await bad('step=fast')).json().errors).toHaveProperty('step');
        expect((await bad(`from=${new Date(now - 365 * DAY).toISOString()}&step=1m`)).json().errors).toHaveProperty(
            'step'
        );
    });
});

describe('GET /api/monitors/{id}/checks', () => {
    it('answers the last checks oldest first with level, message, latency and reading', async () => {
        const res = await w.call('GET', `/api/monitors/${url}/checks?limit=25`, w.plain.access);
        const results = res.json().results;
        expect(results).toHaveLength(25);
        expect(new Date(results[24].t).getTime()).toBe(now - MIN);
        expect(results[24]).toEqual({
            t: results[24].t,
            level: 'ok',
            message: null,
            latency_ms: 159,
            value: 1059,
            source: null,
            locations: null,
        });
        expect(results.find((r: { level: string }) => r.level === 'warning').message).toMatch(/^problem at /);
        expect(
            (await w.call('GET', `/api/monitors/${url}/checks?limit=0`, w.plain.access)).json().errors
        ).toHaveProperty('limit');
        expect((await w.call('GET', `/api/monitors/${url}/checks`, w.plain.access)).json().results).toHaveLength(84);
    });
});

describe('GET /api/monitors/{id}/checks from several locations', () => {
    it('says what each location saw at each check, and nothing for a check from one place', async () => {
        const id = (
            await w.call('POST', '/api/monitors', w.admin.access, {
                configuration_id: await w.configuration(w.admin.access, { name: 'Edge' }),
                is_enabled: true,
                name: 'site from everywhere',
                type: 'urlCheck',
                configuration_object: '{"address":"http://127.0.0.1:9/"}',
            })
        ).json().id as number;
        const seen = [
            { location: 'fra-1', level: 'error' },
            { location: 'local', level: 'ok' },
            { location: 'sgp-1', level: 'none' },
        ] as const;
        await write([
            { monitorId: id, t: now - 2 * MIN, level: 'ok', latencyMs: 5, value: null, message: null },
            {
                monitorId: id,
                t: now - MIN,
                level: 'warning',
                latencyMs: 7,
                value: null,
                message: 'down from fra-1, up from local; no answer from sgp-1',
                locations: packLocationLevels(seen),
            },
        ]);
        const results = (await w.call('GET', `/api/monitors/${id}/checks`, w.plain.access)).json().results;
        expect(results.map((r: { locations: unknown }) => r.locations)).toEqual([null, seen]);
        const [raw] = await rowsOf(
            w.t.app.ctx.db,
            sql`select locations from check_results where monitor_id = ${id} and locations is not null`
        );
        expect(raw?.locations).toBe('fra-1:e,local:o,sgp-1:n');
    });
});

describe('GET /api/monitors/{id}/history.csv', () => {
    it('exports the points as CSV', async () => {
        const res = await w.call(
            'GET',
            `/api/monitors/${url}/history.csv?from=${new Date(now - HOUR).toISOString()}&to=${new Date(now).toISOString()}`,
            w.plain.access
        );
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/csv/);
        expect(res.headers['content-disposition']).toContain(`monitor-${url}-history.csv`);
        const lines = res.body.trim().split('\n');
        expect(lines[0]).toBe('t,ok,warning,error,latency_avg_ms,latency_max_ms,value_last,value_min,value_max');
        expect(lines).toHaveLength(61);
        expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z,1,0,0,100,100,1000,1000,1000$/);
    });
});

describe('tenancy', () => {
    it('answers 404 to another company on every history route', async () => {
        for (const path of [
            `/api/monitors/${url}/history`,
            `/api/monitors/${url}/history.csv`,
            `/api/monitors/${url}/checks`,
            `/api/servers/${server}/disk-history`,
        ]) {
            expect((await w.call('GET', path, w.other.access)).statusCode, path).toBe(404);
        }
    });
});

describe('GET /api/servers/{id}/disk-history', () => {
    it('projects days until full within 20 % of a known steady fill, and "not growing" for a flat disk', async () => {
        // /data fills 0.5 % an hour from 40 % over the last 3 days (noise ±0.2): 100 % in (100 − 76) / 12 ≈ 2 days.
        const readings = Array.from({ length: 3 * 24 * 12 }, (_, i) => {
            const t = now - 3 * DAY + i * 5 * MIN;
            const hours = (i * 5) / 60;
            return {
                t,
                mounts: [
                    ['/data', 40 + 0.5 * hours + (i % 3 === 0 ? 0.2 : -0.1)],
                    ['/', 20],
                ] as [string, number][],
            };
        });
        await write([], readings);
        const res = await w.call('GET', `/api/servers/${server}/disk-history`, w.plain.access);
        expect(res.statusCode).toBe(200);
        const mounts = res.json().mountpoints as {
            mountpoint: string;
            points: unknown[];
            days_until_full: number | null;
        }[];
        expect(mounts.map((m) => m.mountpoint)).toEqual(['/', '/data']);
        const truth = (100 - (40 + 0.5 * 72)) / 12;
        const data = mounts[1]?.days_until_full as number;
        expect(Math.abs(data - truth) / truth).toBeLessThan(0.2);
        expect(mounts[0]?.days_until_full).toBeNull();
        expect(mounts[1]?.points.length).toBeGreaterThan(100);
        expect(mounts[1]?.points[0]).toEqual({ t: expect.any(String), used_percent: expect.any(Number) });
    });
});

describe('disk history of the last hours', () => {
    it('shows every reading of a new disk at once: a 15 min range has a point a minute', async () => {
        const fresh = await w.server(
            w.admin.access,
            (await w.call('GET', `/api/servers/${server}`, w.plain.access)).json().configuration_id,
            { name: 'fresh' }
        );
        // Three readings in the last three minutes, as the disk monitor's first checks write them.
        const buffer = new HistoryBuffer();
        for (const [i, used] of [51, 52, 53].entries()) {
            const t = now - (3 - i) * MIN;
            buffer.record(
                { monitorId: disk, t, level: 'ok', latencyMs: 5, value: null, message: null },
                { serverId: fresh, t, filesystems: [{ mountpoint: '/', usedPercent: used }] }
            );
        }
        await writeHistory(w.t.app.ctx.db, buffer.take(true));
        const range = (ms: number) =>
            `from=${new Date(now - ms).toISOString()}&to=${new Date(now + MIN).toISOString()}`;
        for (const span of [15 * MIN, HOUR]) {
            const res = await w.call('GET', `/api/servers/${fresh}/disk-history?${range(span)}`, w.plain.access);
            expect(res.json().mountpoints[0].points.map((p: { used_percent: number }) => p.used_percent)).toEqual([
                51, 52, 53,
            ]);
        }
        // The default week reads the 15-minute buckets: the last reading of the bucket.
        const week = (await w.call('GET', `/api/servers/${fresh}/disk-history`, w.plain.access)).json();
        expect(week.mountpoints[0].points.length).toBeGreaterThanOrEqual(1);
    });
});

describe("days until full from the disk monitor's own samples", () => {
    it('prefers the samples the disk check keeps over disk history', async () => {
        // What nodeExporterDiskSpace keeps in its memory: /data filling 1 % an hour, now at 70 %: 30 h to go.
        const growth = { '/data': Array.from({ length: 10 }, (_, i) => [now - (9 - i) * HOUR, 61 + i]) };
        await w.t.app.ctx.db.execute(
            `insert into monitor_states (monitor_id, state) values (${disk}, '${JSON.stringify({ alert: {}, memory: { readFailures: 0, judged: null, growth } })}')`
        );
        const mounts = (await w.call('GET', `/api/servers/${server}/disk-history`, w.plain.access)).json().mountpoints;
        expect(mounts.find((m: { mountpoint: string }) => m.mountpoint === '/data').days_until_full).toBe(1.25);
        await w.t.app.ctx.db.execute(`delete from monitor_states where monitor_id = ${disk}`);
    });
});

/** A urlCheck named late in a configuration of its own, made through the API. */
async function lateMonitor(configuration: string): Promise<number> {
    const cfg = await w.configuration(w.admin.access, { name: configuration });
    const res = await w.call('POST', '/api/monitors', w.admin.access, {
        configuration_id: cfg,
        name: 'late',
        type: 'urlCheck',
        configuration_object: '{"address":"http://127.0.0.1:9/"}',
    });
    return res.json().id as number;
}

describe('30-day uptime on lists', () => {
    it('counts the last hour before midnight once, from the checks and then from its day', async () => {
        const id = await lateMonitor('Midnight');
        // Five checks between 23:10 and 23:50 of a day five days back, one of them an Error.
        const midnight = Math.floor(now / DAY) * DAY - 4 * DAY;
        await write(
            Array.from({ length: 5 }, (_, i) =>
                check(midnight - 50 * MIN + i * 10 * MIN, i === 2 ? 'error' : 'ok', { monitorId: id })
            )
        );
        const db = w.t.app.ctx.db;
        expect((await uptime30d(db, [id], midnight + 5 * MIN)).get(id)).toEqual({ up: 4, total: 5 });
        expect((await uptime30d(db, [id], midnight + 65 * MIN)).get(id)).toEqual({ up: 4, total: 5 });
    });

    it("puts uptime_30d on a configuration's monitors and answers the batch route for monitors and configurations", async () => {
        const cfg = (await w.call('GET', `/api/monitors/${url}`, w.plain.access)).json().configuration_id;
        const list = (await w.call('GET', `/api/configurations/${cfg}/monitors`, w.plain.access)).json();
        const byName = Object.fromEntries(
            list.map((m: { name: string; uptime_30d: unknown }) => [m.name, m.uptime_30d])
        );
        // The site's checks are all in the current and the previous hour: 10 of its last 60 were Errors.
        expect(byName).toEqual({ site: 83.333, disk: 100 });
        const page = (await w.call('GET', `/api/monitors/${url}/history`, w.plain.access)).json().uptime['30d'];
        expect(Math.abs(page - byName.site)).toBeLessThan(1);
        const batch = (await w.call('GET', `/api/uptime?configuration_id=${cfg}`, w.plain.access)).json();
        expect(batch.monitors).toContainEqual({ id: url, uptime_30d: 83.333 });
        expect(batch.monitors).toContainEqual({ id: disk, uptime_30d: 100 });
        const [hub] = batch.configurations;
        expect(hub.id).toBe(cfg);
        expect(hub.uptime_30d).toBeGreaterThan(83.333);
        expect(hub.uptime_30d).toBeLessThan(100);
        expect((await w.call('GET', `/api/configurations/${cfg}`, w.plain.access)).json()).toMatchObject({
            id: cfg,
            name: 'Hub',
            uptime_30d: hub.uptime_30d,
        });
        // react-admin sends back what it read: the field is accepted and ignored.
        const echoed = list.find((m: { name: string }) => m.name === 'disk');
        expect((await w.call('PUT', `/api/monitors/${disk}`, w.admin.access, echoed)).statusCode).toBe(200);
        expect((await w.call('GET', '/api/uptime', w.plain.access)).json().monitors.length).toBeGreaterThanOrEqual(2);
        expect((await w.call('GET', `/api/uptime?configuration_id=${cfg}`, w.other.access)).statusCode).toBe(404);
        expect((await w.call('GET', '/api/uptime', w.other.access)).json()).toEqual({
            monitors: [],
            configurations: [],
        });
        expect((await w.call('GET', '/api/uptime?configuration_id=x', w.plain.access)).json().errors).toHaveProperty(
            'configuration_id'
        );
    });
});

describe("a status page's days", () => {
    it('counts yesterday just after midnight, before its daily bucket is written', async () => {
        const id = await lateMonitor('Status days');
        // Checks every 10 minutes from 22:10 to 23:50 of a day three days back, one an Error, written as the engine
        // flushes them: the raw rows and the buckets closed so far, the day's and its last hour's still open.
        const midnight = Math.floor(now / DAY) * DAY - 2 * DAY;
        const buffer = new HistoryBuffer();
        for (let i = 0; i < 11; i++)
            buffer.record(check(midnight - 110 * MIN + i * 10 * MIN, i === 8 ? 'error' : 'ok', { monitorId: id }));
        const db = w.t.app.ctx.db;
        await writeHistory(db, buffer.take(false));
        const yesterday = new Date(midnight - DAY).toISOString().slice(0, 10);
        const days = async (at: number) => (await dailyUptime(db, [id], 2, at)).get(id)?.get(yesterday);
        expect(await days(midnight + 30_000)).toEqual({ up: 10, total: 11 });
        expect(await days(midnight + 55 * MIN)).toEqual({ up: 10, total: 11 });
        // The first check of the new day closes the day's bucket, which answers once the hour before is today.
        buffer.record(check(midnight + 60_000, 'ok', { monitorId: id }));
        await writeHistory(db, buffer.take(false));
        expect(await days(midnight + 30 * MIN)).toEqual({ up: 10, total: 11 });
        expect(await days(midnight + 65 * MIN)).toEqual({ up: 10, total: 11 });
    });
});

describe('pruning', () => {
    it('deletes what is past retention in small steps and keeps the rest', async () => {
        const db = w.t.app.ctx.db;
        const count = async (q: string) =>
            Number(((await db.execute(q)) as unknown as { rows: { n: unknown }[] }).rows[0]?.n);
        const iso = (ms: number) => new Date(ms).toISOString();
        const split = async (table: string, column: string, keptMs: number) => ({
            old: await count(`select count(*) as n from ${table} where ${column} < '${iso(now - keptMs)}'`),
            young: await count(`select count(*) as n from ${table} where ${column} >= '${iso(now - keptMs)}'`),
        });
        // Checks 3 days old: past the raw retention (48 h), within the rollups'.
        await write(Array.from({ length: 10 }, (_, i) => check(now - 3 * DAY + i * MIN, 'ok')));
        const tables = [
            ['check_results', 't', 48 * HOUR],
            ['history_5m', 'bucket', 90 * DAY],
            ['history_1h', 'bucket', 730 * DAY],
            ['history_1d', 'bucket', 730 * DAY],
            // Every disk reading is kept as long as raw checks (the 3 days of readings above).
            ['disk_samples', 't', 48 * HOUR],
        ] as const;
        const before = await Promise.all(tables.map(([t, c, ms]) => split(t, c, ms)));
        expect(before.map((b) => b.old > 0)).toEqual([true, true, true, true, true]);
        const pruner = new HistoryPruner(db, w.t.app.ctx.config.history, w.t.app.log);
        let deleted = 0;
        for (let i = 0; i < 4; i++) deleted += await pruner.step(now);
        const after = await Promise.all(tables.map(([t, c, ms]) => split(t, c, ms)));
        expect(after).toEqual(before.map((b) => ({ old: 0, young: b.young })));
        expect(deleted).toBe(before.reduce((n, b) => n + b.old, 0));
        expect((await w.call('GET', `/api/monitors/${url}/checks`, w.plain.access)).json().results).toHaveLength(60);
    });

    it("removes a deleted monitor's history", async () => {
        const db = w.t.app.ctx.db;
        expect((await w.call('DELETE', `/api/monitors/${url}`, w.admin.access)).statusCode).toBe(200);
        const pruner = new HistoryPruner(db, w.t.app.ctx.config.history, w.t.app.log);
        for (let i = 0; i < 3; i++) await pruner.step(now);
        const left = (await db.execute(
            `select count(*) as n from history_5m where monitor_id = ${url}`
        )) as unknown as {
            rows: { n: unknown }[];
        };
        expect(Number(left.rows[0]?.n)).toBe(0);
    });
});
