import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { monitors } from '../../../server/db/schema';
import { SharedObservations } from '../../../server/engine/observations';
import { chainFamilies } from '../../../server/metrics/chain-families';
import { type ChainSim, startChainSim } from '../../../tools/chain-sim';
import { seedCompany } from '../helpers';
import { activeSetAndDisks, seedNode, waitFor } from '../seed';
import { type ClusterApps, clusterApps } from './apps';

/**
 * The chain-source, validator and disk families in the cluster profile: a worker checks a validator's jail budget,
 * its active-set rank and its server's disks, and the page of a `web` process (which runs no checks, so has none of
 * that in memory) carries the same series as the worker's own page, from what the worker recorded in Redis.
 */
const TOKEN = 'prometheus-scrape-token-0123456789';
const FIGURES = 'node-monitor:observations:figures';
let c: ClusterApps;
let sim: ChainSim;
let jailBudgetId = 0;

const worker = () => c.web(0);
const web = () => c.web(1);

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 200, nodes: 1 });
    c = await clusterApps(2, 5, [
        { role: 'worker', engineEnabled: true, metricsToken: TOKEN },
        { role: 'web', engineEnabled: false, metricsToken: TOKEN },
    ]);
    const node = sim.nodes[0];
    if (!node) throw new Error('no node');
    const valoper = sim.chain.ours.valoper;
    const duty = await seedNode(web(), {
        companyId: await seedCompany(web(), 'Validators "Inc"'),
        chain: 'simchain',
        services: [
            { type: 'rest', address: node.restUrl },
            { type: 'node_exporter', address: node.nodeExporterUrl },
        ],
        monitor: {
            type: 'slashingWindow',
            name: 'Jail budget',
            settings: { valoper_address: valoper, warning_percent: 99, error_percent: 100, sleep_duration_seconds: 1 },
        },
    });
    jailBudgetId = duty.monitorId;
    const added = await web()
        .ctx.db.insert(monitors)
        .values(activeSetAndDisks(duty, valoper))
        .returning({ id: monitors.id });
    // As the API does: the events reach the worker's engine through Redis.
    for (const { id } of added) web().ctx.events.emit({ name: 'MONITOR_CREATED', monitorId: id });
});
afterAll(async () => {
    await c?.close();
    await sim?.close();
});

const scrape = async (app: ReturnType<typeof web>) =>
    (await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
const CHAIN_FAMILY = /^(# (HELP|TYPE) )?node_monitor_(chain_source|validator|disk)_/;
/** The page's chain-family lines; heights and block times move between two scrapes, so they become `N`. */
const chainLines = (page: string, steady = true) =>
    page
        .split('\n')
        .filter((l) => CHAIN_FAMILY.test(l))
        .map((l) =>
            steady && /^node_monitor_chain_source_(height|latest)/.test(l) ? l.replace(/ [\d.e+]+$/, ' N') : l
        )
        .sort();

it("a web process's page has the worker's chain, validator and disk series, labels, help and values", async () => {
    const full = (page: string) =>
        /^node_monitor_disk_used_percent\{/m.test(page) &&
        /^node_monitor_validator_active_set_rank_margin\{/m.test(page) &&
        /^node_monitor_validator_jail_budget_left_blocks\{/m.test(page) &&
        /^node_monitor_chain_source_height\{/m.test(page);
    await waitFor('the figures on the web page', async () => full(await scrape(web())));
    // The web page from Redis (sent each second) says what the worker's engine holds in memory, and so does the
    // page of a process with an engine in the cluster (it may not have run every check).
    const engine = worker().ctx.engine;
    if (!engine) throw new Error('no engine in the worker');
    const [inMemory, onWeb, onWorker] = await waitFor(
        'the same figures on both pages',
        async () => {
            const held = chainLines(chainFamilies(engine, () => 'Validators "Inc"'));
            const pages = [chainLines(await scrape(web())), chainLines(await scrape(worker()))];
            return pages.every((p) => p.join('\n') === held.join('\n')) ? [held, ...pages] : null;
        },
        15_000
    );
    expect(onWeb).toEqual(inMemory);
    expect(onWorker).toEqual(inMemory);
    const chain = 'company="Validators \\"Inc\\"",configuration="Sim mainnet",chain="simchain"';
    const validator = `${chain},valoper="${sim.chain.ours.valoper}"`;
    for (const line of [
        `node_monitor_chain_source_height{${chain},source="validator-1"} N`,
        `node_monitor_chain_source_latest_block_timestamp_seconds{${chain},source="validator-1"} N`,
    ])
        expect(onWeb).toContain(line);
    for (const re of [
        /^node_monitor_validator_missed_blocks_in_window\{VALIDATOR\} \d+$/,
        /^node_monitor_validator_jail_budget_left_blocks\{VALIDATOR\} \d+$/,
        /^node_monitor_validator_active_set_rank_margin\{VALIDATOR\} -?\d+$/,
        /^node_monitor_disk_used_percent\{company="Validators \\"Inc\\"",configuration="Sim mainnet",server="validator-1",mountpoint="\/"\} [\d.]+$/,
        /^# HELP node_monitor_validator_jail_budget_left_blocks Blocks the validator may still miss/,
    ]) {
        const literal = validator.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const pattern = new RegExp(re.source.replace('VALIDATOR', literal));
        expect(onWeb.filter((l) => pattern.test(l))).toHaveLength(1);
    }
    // Live heights, not frozen: the web page's follows the chain.
    const height = (page: string) => Number(/^node_monitor_chain_source_height\{.*\} (\d+)$/m.exec(page)?.[1]);
    const before = height(await scrape(web()));
    await waitFor('a higher height on the web page', async () => height(await scrape(web())) > before);
});

it.runIf(existsSync('/usr/bin/promtool'))('the web page passes promtool check metrics', async () => {
    const res = spawnSync('promtool', ['check', 'metrics'], { input: await scrape(web()), encoding: 'utf8' });
    expect(`${res.stdout}${res.stderr}`.trim()).toBe('');
    expect(res.status).toBe(0);
});

it("drops a deleted monitor's figures from the web page and from Redis", async () => {
    const db = web().ctx.db;
    expect(await c.redis.hexists(FIGURES, `v:${jailBudgetId}`)).toBe(1);
    await db.delete(monitors).where(eq(monitors.id, jailBudgetId));
    web().ctx.events.emit({ name: 'MONITOR_DELETED', monitorId: jailBudgetId });
    // The next page already leaves it out (it is no longer in the database), and forgets it in Redis.
    const page = await scrape(web());
    expect(page).not.toMatch(/^node_monitor_validator_(missed_blocks_in_window|jail_budget_left_blocks)\{/m);
    expect(page).toMatch(/^node_monitor_validator_active_set_rank_margin\{/m);
    expect(page).toMatch(/^node_monitor_disk_used_percent\{/m);
    await waitFor('the worker to stop checking it', async () => {
        await scrape(web());
        await new Promise((r) => setTimeout(r, 1500));
        return (await c.redis.hexists(FIGURES, `v:${jailBudgetId}`)) === 0;
    });
});

it('keeps the later of two checks whichever is sent last, and drops figures past their time', async () => {
    const shared = new SharedObservations(c.redis);
    const check = { durationMs: 5, level: 'ok' as const };
    const figures = (until: number, missed: number) => ({
        until,
        validator: { monitorId: 999_001, valoper: 'v', gauges: { missed } },
    });
    const now = Date.now();
    await shared.record(999_001, { ...check, checkedAt: now }, figures(now + 60_000, 7));
    await shared.record(999_001, { ...check, checkedAt: now - 1000 }, figures(now + 60_000, 3));
    expect((await shared.figures()).figures.validators.get(999_001)?.gauges).toEqual({ missed: 7 });
    const later = await shared.figures(now + 61_000);
    expect(later.figures.validators.has(999_001)).toBe(false);
    expect(later.expired).toContain('v:999001');
    // The hash itself lives as long as the longest-lived figure sent, so it goes when no worker writes.
    expect(await c.redis.pttl(FIGURES)).toBeGreaterThan(60_000);
    await shared.forget([999_001], [], later.expired, now + 61_000);
    expect(await c.redis.hexists(FIGURES, 'v:999001')).toBe(0);
});

it('keeps the later of two checks sent in one batch, and a figure refreshed after a page found it past its time', async () => {
    const shared = new SharedObservations(c.redis);
    const check = { durationMs: 5, level: 'ok' as const };
    const figures = (until: number, missed: number) => ({
        until,
        validator: { monitorId: 999_002, valoper: 'v', gauges: { missed } },
    });
    const now = Date.now();
    // Recorded in the other order within one second: one call to Redis carries both.
    await Promise.all([
        shared.record(999_002, { ...check, checkedAt: now + 5000 }, figures(now + 60_000, 9)),
        shared.record(999_002, { ...check, checkedAt: now + 2000 }, figures(now + 60_000, 4)),
    ]);
    expect((await shared.figures()).figures.validators.get(999_002)?.gauges).toEqual({ missed: 9 });
    // A page finds it past its time; a check refreshes it before the page drops what it found.
    const seen = await shared.figures(now + 61_000);
    expect(seen.expired).toContain('v:999002');
    await shared.record(999_002, { ...check, checkedAt: now + 61_000 }, figures(now + 120_000, 1));
    await shared.forget([], [], seen.expired, now + 61_000);
    expect((await shared.figures(now + 61_000)).figures.validators.get(999_002)?.gauges).toEqual({ missed: 1 });
});
