import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChainSim, startChainSim } from '../../tools/chain-sim';
import { GO_LISTENING, spawnListening } from '../support/spawn';
import { monitors } from '../../server/db/schema';
import { createTestApp, seedCompany, type TestApp } from './helpers';
import { activeSetAndDisks, seedNode, waitFor } from './seed';

const TOKEN = 'prometheus-scrape-token-0123456789';
// CI installs Debian's prometheus package; elsewhere the scrape by a real Prometheus is left out of the run.
const withPrometheus = Boolean(process.env.CI) || existsSync('/usr/bin/prometheus');

let sim: ChainSim;
let t: TestApp;
let base: string;

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 200, nodes: 2 });
    t = await createTestApp({ engineEnabled: true, metricsToken: TOKEN });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const companyId = await seedCompany(t.app, 'Validators "Inc"');
    const node = sim.nodes[0];
    if (!node) throw new Error('no node');
    await seedNode(t.app, {
        companyId,
        services: [{ type: 'rpc', address: node.rpcUrl }],
        monitor: {
            type: 'blockCheck',
            name: 'Block production',
            settings: { miss_tolerance: 2, miss_tolerance_period_seconds: 3, sleep_duration_seconds: 1 },
        },
    });
    // A validator read through the sentry (node 1), with its jail budget, rank and disks.
    const sentry = sim.nodes[1];
    if (!sentry) throw new Error('no sentry');
    const valoper = sim.chain.ours.valoper;
    const duty = await seedNode(t.app, {
        companyId,
        chain: 'simchain',
        services: [
            { type: 'rest', address: sentry.restUrl },
            { type: 'node_exporter', address: sentry.nodeExporterUrl },
        ],
        monitor: {
            type: 'slashingWindow',
            name: 'Jail budget',
            settings: { valoper_address: valoper, warning_percent: 99, error_percent: 100, sleep_duration_seconds: 1 },
        },
    });
    await t.app.ctx.db.insert(monitors).values(activeSetAndDisks(duty, valoper));
    t.app.ctx.events.emit({ name: 'MONITOR_CREATED', monitorId: duty.monitorId });
});
afterAll(async () => {
    await t?.close();
    await sim?.close();
});

const scrape = (token?: string) =>
    fetch(`${base}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

/** The Block production monitor's state line (the page lists monitors in the order the database returns them). */
const stateLine = (page: string) =>
    page
        .split('\n')
        .find((l) => l.startsWith('node_monitor_monitor_state{') && l.includes('monitor="Block production"'));

describe('GET /metrics', () => {
    it('is refused without the token and with a wrong one', async () => {
        const none = await scrape();
        expect(none.status).toBe(401);
        expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect((await scrape('wrong-token-wrong-token')).status).toBe(401);
    });

    it('does not exist when METRICS_TOKEN is unset', async () => {
        const plain = await createTestApp();
        try {
            const res = await plain.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
            expect(res.statusCode).toBe(404);
        } finally {
            await plain.close();
        }
    });

    it('reports each monitor with its labels, and its state turning to error when the node halts', async () => {
        await waitFor('a healthy check on the page', async () =>
            stateLine(await (await scrape(TOKEN)).text())?.endsWith(' 0')
        );
        const page = await (await scrape(TOKEN)).text();
        expect(stateLine(page)).toMatch(
            /^node_monitor_monitor_state\{company="Validators \\"Inc\\"",configuration="Sim mainnet",chain="cosmoshub",server="validator-1",monitor="Block production",monitor_id="\d+",type="blockCheck"\} 0$/
        );
        expect(page).toMatch(/^node_monitor_monitor_last_check_timestamp_seconds\{.*\} \d{10}(\.\d+)?$/m);
        expect(page).toMatch(/^node_monitor_monitor_last_success_timestamp_seconds\{.*\} \d{10}(\.\d+)?$/m);
        expect(page).toMatch(/^node_monitor_check_duration_seconds\{.*\} [\d.e-]+$/m);
        expect(page).toMatch(/^node_monitor_engine_checks_total [1-9]\d*$/m);
        expect(page).toMatch(/^node_monitor_engine_monitors 4$/m);
        expect(page).toMatch(/^node_monitor_engine_scheduling_lag_p99_seconds [\d.e-]+$/m);
        expect(page).toMatch(/^node_monitor_open_incidents 0$/m);
        expect(page).toMatch(/^process_resident_memory_bytes \d+$/m);

        sim.control.halt(0);
        await waitFor('the error state', async () => stateLine(await (await scrape(TOKEN)).text())?.endsWith(' 2'));
        const failing = await (await scrape(TOKEN)).text();
        expect(failing).toMatch(/^node_monitor_open_incidents 1$/m);
        sim.control.resume(0);
    });

    it('reports height and block time per chain source, the jail budget, the rank margin and every mountpoint', async () => {
        const page = await waitFor('the chain figures', async () => {
            const text = await (await scrape(TOKEN)).text();
            return /^node_monitor_disk_used_percent/m.test(text) && /rank_margin\{/.test(text) ? text : null;
        });
        const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const line = (name: string, labels: string, value: string) =>
            expect(page).toMatch(new RegExp(`^${name}${literal(`{${labels}}`)} ${value}$`, 'm'));
        const chain = 'company="Validators \\"Inc\\"",configuration="Sim mainnet",chain="simchain"';
        line('node_monitor_chain_source_height', `${chain},source="validator-1"`, '\\d+');
        line(
            'node_monitor_chain_source_latest_block_timestamp_seconds',
            `${chain},source="validator-1"`,
            '\\d{10}(\\.\\d+)?'
        );
        const validator = `${chain},valoper="${sim.chain.ours.valoper}"`;
        line('node_monitor_validator_missed_blocks_in_window', validator, '\\d+');
        line('node_monitor_validator_jail_budget_left_blocks', validator, '\\d+');
        line('node_monitor_validator_active_set_rank_margin', validator, '-?\\d+');
        const disk = 'company="Validators \\"Inc\\"",configuration="Sim mainnet",server="validator-1",mountpoint="/"';
        line('node_monitor_disk_used_percent', disk, '[\\d.]+');
    });

    it.runIf(withPrometheus)('passes promtool check metrics', async () => {
        const page = await (await scrape(TOKEN)).text();
        const res = spawnSync('promtool', ['check', 'metrics'], { input: page, encoding: 'utf8' });
        expect(`${res.stdout}${res.stderr}`.trim()).toBe('');
        expect(res.status).toBe(0);
    });

    it('names in the shipped Grafana dashboard and alert rules only metrics the page has', async () => {
        const docs = ['docs/grafana-dashboard.json', 'docs/prometheus-alerts.yml'].map((f) => readFileSync(f, 'utf8'));
        const named = new Set(docs.flatMap((d) => d.match(/\b(node_monitor|process|nodejs)_[a-z0-9_]+/g) ?? []));
        expect(named.size).toBeGreaterThan(8);
        // The chain and disk families appear once the monitors have read their figures.
        const missing = async () => {
            const page = await (await scrape(TOKEN)).text();
            const onPage = new Set(page.split('\n').flatMap((l) => (l.startsWith('# TYPE ') ? [l.split(' ')[2]] : [])));
            return [...named].filter((n) => !onPage.has(n));
        };
        await waitFor('every named metric on the page', async () => (await missing()).length === 0).catch(() => null);
        expect(await missing()).toEqual([]);
        const dashboard = JSON.parse(docs[0] ?? '') as { panels: { targets: { expr: string }[] }[] };
        expect(dashboard.panels.length).toBeGreaterThan(5);
    });

    it.runIf(withPrometheus)('ships alert rules that promtool accepts', () => {
        const res = spawnSync('promtool', ['check', 'rules', 'docs/prometheus-alerts.yml'], { encoding: 'utf8' });
        expect(res.stdout).toContain('SUCCESS: 6 rules found');
        expect(res.status).toBe(0);
    });

    it.runIf(withPrometheus)('is scraped by a real Prometheus with the token', { timeout: 60_000 }, async () => {
        const dir = mkdtempSync(join(tmpdir(), 'nm-prometheus-'));
        const { host } = new URL(base);
        writeFileSync(
            join(dir, 'prometheus.yml'),
            [
                'global: { scrape_interval: 1s }',
                'scrape_configs:',
                '  - job_name: node-monitor',
                '    authorization: { credentials_file: token }',
                `    static_configs: [{ targets: ["${host}"] }]`,
            ].join('\n')
        );
        writeFileSync(join(dir, 'token'), TOKEN);
        let prometheus: ChildProcess | null = null;
        try {
            const started = await spawnListening(
                (port) =>
                    spawn(
                        'prometheus',
                        [
                            `--config.file=${join(dir, 'prometheus.yml')}`,
                            `--storage.tsdb.path=${join(dir, 'data')}`,
                            `--web.listen-address=127.0.0.1:${port}`,
                        ],
                        { stdio: ['ignore', 'pipe', 'pipe'] }
                    ),
                GO_LISTENING,
                async (port) => (await fetch(`http://127.0.0.1:${port}/-/ready`)).ok
            );
            prometheus = started.child;
            const { port } = started;
            const query = async () => {
                const res = await fetch(
                    `http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent('node_monitor_engine_monitors')}`
                ).catch(() => null);
                const body = (await res?.json().catch(() => null)) as {
                    data?: { result?: { value: [number, string] }[] };
                } | null;
                return body?.data?.result?.[0]?.value[1];
            };
            await waitFor('Prometheus to scrape the page', query, 45_000);
            expect(await query()).toBe('4');
            const targets = (await (await fetch(`http://127.0.0.1:${port}/api/v1/targets`)).json()) as {
                data: { activeTargets: { health: string; lastError: string }[] };
            };
            expect(targets.data.activeTargets[0]).toMatchObject({ health: 'up', lastError: '' });
        } finally {
            prometheus?.kill('SIGKILL');
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
