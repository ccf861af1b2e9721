import { HistoryBuffer, writeHistory } from '../../server/history/buffer';
import { dailyUptime } from '../../server/history/daily-uptime';
import { HistoryPacker } from '../../server/history/packer';
import { HistoryPruner } from '../../server/history/pruner';
import { uptime30d } from '../../server/history/uptime';
import type { CheckSample } from '../../server/history/rollup';
import { createWorld, type World } from './config-fixtures';

/**
 * A database upgraded with months of rollup rows (a row per bucket, as before packing) shows the same charts,
 * uptime and CSV once the packer has moved them into packed days, and keeps answering while it does.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const now = Date.now();
/** The start of the last day the packer takes (a day is packed an hour after it ends). */
const edge = Math.floor((now - HOUR) / DAY) * DAY;

let w: World;
let site: number;
let node: number;
let server: number;

const count = async (q: string) =>
    Number(((await w.t.app.ctx.db.execute(q)) as unknown as { rows: { n: unknown }[] }).rows[0]?.n);

/** Through the engine's write path; raw checks only within their retention (48 h), as the pruner leaves them. */
async function write(samples: CheckSample[]) {
    const buffer = new HistoryBuffer();
    for (const s of samples.sort((a, b) => a.t - b.t)) buffer.record(s);
    const batch = buffer.take(true);
    await writeHistory(w.t.app.ctx.db, { ...batch, raw: batch.raw.filter((s) => s.t >= now - 48 * HOUR) });
}

/** A check every `everyMs` for `spanMs` from `t0`: an outage now and then, latency with decimals, a reading. */
function checks(monitorId: number, t0: number, spanMs: number, everyMs: number, reading: (i: number) => number | null) {
    return Array.from({ length: Math.floor(spanMs / everyMs) }, (_, i): CheckSample => {
        const level = i % 37 < 3 ? 'error' : i % 53 === 0 ? 'warning' : 'ok';
        return {
            monitorId,
            t: t0 + i * everyMs,
            level,
            latencyMs: 80 + ((i * 7919) % 1000) / 7,
            value: reading(i),
            message: level === 'ok' ? null : 'slow',
        };
    });
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Answers as they may differ after packing: an average latency or disk use within rounding (packed days keep a
 * latency sum to a tenth of a millisecond, a reading to a thousandth).
 */
function roughly(answer: unknown): unknown {
    if (Array.isArray(answer)) return answer.map(roughly);
    if (answer && typeof answer === 'object')
        return Object.fromEntries(
            Object.entries(answer).map(([k, v]) => [
                k,
                typeof v !== 'number'
                    ? roughly(v)
                    : k === 'latency_avg_ms'
                      ? expect.closeTo(v, 0)
                      : k === 'used_percent'
                        ? expect.closeTo(v, 1)
                        : v,
            ])
        );
    return answer;
}

/** Every answer the history routes give, for both monitors, over ranges that read each tier. */
async function answers() {
    const out: Record<string, unknown> = {};
    for (const id of [site, node]) {
        for (const q of [
            '',
            `from=${iso(now - 7 * DAY)}`,
            `from=${iso(now - 45 * DAY)}`,
            `from=${iso(now - 10 * 365 * DAY)}&step=1d`,
            `from=${iso(now - 41 * DAY)}&to=${iso(now - 39 * DAY)}&step=5m`,
            `from=${iso(now - 5 * DAY)}&to=${iso(now - 3 * DAY)}&step=10m`,
            `from=${iso(now - 400 * DAY)}&step=6h`,
        ]) {
            const res = await w.call('GET', `/api/monitors/${id}/history?${q}`, w.plain.access);
            expect(res.statusCode).toBe(200);
            // from and to default to the time of the request.
            const { from, to, ...answer } = res.json();
            out[`${id} history ${q}`] = answer;
        }
        const [header, ...lines] = (await w.call('GET', `/api/monitors/${id}/history.csv`, w.plain.access)).body
            .trim()
            .split('\n')
            .map((line) => line.split(','));
        out[`${id} csv`] = lines.map((cells) =>
            Object.fromEntries(cells.map((c, i) => [header?.[i], i === 4 && c !== '' ? Number(c) : c]))
        );
    }
    for (const q of ['', `from=${iso(now - 30 * DAY)}`, `from=${iso(now - 3 * DAY)}&to=${iso(now - 2 * DAY)}`]) {
        const res = await w.call('GET', `/api/servers/${server}/disk-history?${q}`, w.plain.access);
        expect(res.statusCode).toBe(200);
        out[`disk ${q}`] = res.json();
    }
    out.uptime = (await w.call('GET', '/api/uptime', w.plain.access)).json();
    out.uptime30d = [...(await uptime30d(w.t.app.ctx.db, [site, node], now)).entries()];
    out.daily = [...(await dailyUptime(w.t.app.ctx.db, [site, node], 90, now)).entries()].map(([id, m]) => [
        id,
        [...m.entries()],
    ]);
    return out;
}

beforeAll(async () => {
    w = await createWorld();
    const cfg = await w.configuration(w.admin.access, { name: 'Hub' });
    const create = async (body: object) =>
        (
            await w.call('POST', '/api/monitors', w.admin.access, { configuration_id: cfg, is_enabled: true, ...body })
        ).json().id as number;
    server = await w.server(w.admin.access, cfg);
    site = await create({ name: 'site', type: 'urlCheck', configuration_object: '{"address":"http://127.0.0.1:9/"}' });
    node = await create({ name: 'node', type: 'urlCheck', configuration_object: '{"address":"http://127.0.0.1:9/"}' });
    // Three days of checks every 5 minutes up to minutes ago (so the day the packer leaves open has rows, also in the
    // first minutes after it took the day before), and stretches 10, 60, 100, 400 days and 3 years back: rollup rows
    // only, as an upgraded database has them. The site's reading is a used % with decimals, the node's a block height.
    const stretches = [
        [now - 3 * DAY, 3 * DAY - 5 * MIN],
        [now - 10 * DAY, 2 * DAY],
        [now - 60 * DAY, 25 * DAY],
        [now - 100 * DAY, 6 * HOUR],
        [now - 400 * DAY, 6 * HOUR],
        [now - 3 * 365 * DAY, HOUR],
    ];
    for (const [t0, span] of stretches as [number, number][]) {
        await write(checks(site, t0, span, 5 * MIN, (i) => Math.round((40 + i / 300) * 1000) / 1000));
        await write(checks(node, t0, span, 5 * MIN, (i) => (i % 11 === 0 ? null : 20_000_000 + i * 50)));
    }
    // Twelve whole days of disk readings every 15 minutes, up to the day still open (so twelve days get packed at
    // any hour of the run): /data filling, / flat, the last reading of each bucket kept.
    const disk = new HistoryBuffer();
    for (let t = edge - 12 * DAY; t < edge; t += 15 * MIN) {
        const hours = (t - edge + 12 * DAY) / HOUR;
        disk.record(
            { monitorId: site, t, level: 'ok', latencyMs: 5, value: null, message: null },
            {
                serverId: server,
                t,
                filesystems: [
                    { mountpoint: '/data', usedPercent: 40 + 0.1 * hours + (Math.round(t / MIN) % 7) / 13 },
                    { mountpoint: '/', usedPercent: 20 },
                ],
            }
        );
    }
    const { disks } = disk.take(true);
    await writeHistory(w.t.app.ctx.db, { raw: [], fiveMinute: [], hourly: [], daily: [], disks, diskSamples: [] });
}, 180_000);
afterAll(() => w.t.close());

describe('packing rollups into days', () => {
    it('answers the same charts, uptime and CSV before and after the rows are packed, in steps', async () => {
        const before = await answers();
        const unpacked = async () =>
            (await count(`select count(*) as n from history_5m where bucket < '${iso(edge)}'`)) +
            (await count(`select count(*) as n from history_1h where bucket < '${iso(edge)}'`)) +
            (await count(`select count(*) as n from history_1d where bucket < '${iso(edge)}'`)) +
            (await count(`select count(*) as n from disk_history where bucket < '${iso(edge)}'`));
        const rows = await unpacked();
        expect(rows).toBeGreaterThan(5000);
        const packer = new HistoryPacker(w.t.app.ctx.db, w.t.app.ctx.config.history, w.t.app.log);
        let moved = 0;
        let steps = 0;
        for (let n = await packer.step(now); n > 0; n = await packer.step(now)) {
            moved += n;
            steps++;
            // Half-way the answers are the same: a bucket is in its row or in its packed day, never both.
            if (steps === 1) expect(await answers()).toEqual(roughly(before));
        }
        expect(steps).toBeGreaterThan(1);
        expect(moved).toBe(rows);
        expect(await unpacked()).toBe(0);
        expect(await count('select count(*) as n from history_days')).toBeGreaterThan(0);
        expect(await count('select count(*) as n from disk_days')).toBe(2 * 12);
        // The current day stays in rows until it is over.
        expect(await count(`select count(*) as n from history_5m where bucket >= '${iso(edge)}'`)).toBeGreaterThan(0);
        expect(await answers()).toEqual(roughly(before));
    }, 120_000);

    it('merges a bucket written late into its packed day', async () => {
        const t = now - 40 * DAY + 7 * MIN;
        const range = `from=${iso(now - 41 * DAY)}&to=${iso(now - 39 * DAY)}&step=5m`;
        const total = async () =>
            (await w.call('GET', `/api/monitors/${site}/history?${range}`, w.plain.access))
                .json()
                .points.reduce((n: number, p: { ok: number; error: number }) => n + p.ok + p.error, 0);
        const was = await total();
        await write([{ monitorId: site, t, level: 'error', latencyMs: 10, value: 1, message: 'late' }]);
        expect(await total()).toBe(was + 1);
        const packer = new HistoryPacker(w.t.app.ctx.db, w.t.app.ctx.config.history, w.t.app.log);
        expect(await packer.step(now)).toBe(3);
        expect(await total()).toBe(was + 1);
    });

    it('prunes packed days past retention: the 5-minute part first, then the day', async () => {
        const five = async (daysAgo: number) =>
            count(
                `select count(*) as n from history_days where monitor_id = ${site} and five_minutes is not null and day <= '${iso(now - daysAgo * DAY)}'`
            );
        const days = async (daysAgo: number) =>
            count(
                `select count(*) as n from history_days where monitor_id = ${site} and day <= '${iso(now - daysAgo * DAY)}'`
            );
        // The packer keeps no 5-minute buckets past their retention (90 days) either.
        expect(await five(95)).toBe(0);
        expect(await days(95)).toBeGreaterThan(0);
        expect(await five(35)).toBeGreaterThan(0);
        expect(await days(3 * 365)).toBeGreaterThan(0);
        // Sixty days on, the stretch 35 to 60 days back is past the 5-minute retention, 3 years past the hourly one.
        const pruner = new HistoryPruner(w.t.app.ctx.db, w.t.app.ctx.config.history, w.t.app.log);
        for (let i = 0; i < 4; i++) await pruner.step(now + 60 * DAY);
        expect(await five(35)).toBe(0);
        expect(await days(35)).toBeGreaterThan(0);
        expect(await five(5)).toBeGreaterThan(0);
        expect(await days(3 * 365)).toBe(0);
        // Disk readings are kept as long as the 5-minute buckets.
        expect(await count('select count(*) as n from disk_days')).toBe(2 * 12);
        for (let i = 0; i < 4; i++) await pruner.step(now + 100 * DAY);
        expect(await count('select count(*) as n from disk_days')).toBe(0);
    });
});
