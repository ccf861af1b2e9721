import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { monitors, monitorStates } from '../../server/db/schema';
import type { Observation } from '../../server/engine/engine';
import type { SharedObservations } from '../../server/engine/observations';
import { INITIAL_ALERT_STATE } from '../../server/engine/transitions';
import { createTestApp, seedCompany, type TestApp } from './helpers';
import { seedNode } from './seed';

/**
 * /metrics of a monitor checked from several locations: a series per location beside the per-monitor families,
 * from the results the workers saved with its state. Only the cluster checks from several places, so this is a `web`
 * process's page; the workers' latest checks, which it reads from Redis, are handed to it here instead.
 */
const TOKEN = 'prometheus-scrape-token-0123456789';
const withPromtool = Boolean(process.env.CI) || existsSync('/usr/bin/promtool');
const CHECKED_AT = Date.parse('2026-01-01T00:00:00Z');

let t: TestApp;
let several: number;
let single: number;

beforeAll(async () => {
    t = await createTestApp({ metricsToken: TOKEN });
    const node = await seedNode(t.app, {
        companyId: await seedCompany(t.app, 'Validators'),
        services: [{ type: 'rpc', address: 'http://127.0.0.1:9' }],
        monitor: { type: 'blockCheck', name: 'Block production', settings: {} },
    });
    several = node.monitorId;
    const [other] = await t.app.ctx.db
        .insert(monitors)
        .values({
            configurationId: node.configurationId,
            serverId: node.serverId,
            name: 'Blocks from here',
            type: 'blockCheck',
            configurationObject: '{}',
        })
        .returning();
    single = other?.id ?? 0;
    const at = new Date(CHECKED_AT).toISOString();
    await t.app.ctx.db.insert(monitorStates).values([
        {
            monitorId: several,
            state: {
                alert: INITIAL_ALERT_STATE,
                memory: null,
                locations: [
                    { location: 'local', level: 'ok', message: null, latency_ms: 12.5, checked_at: at },
                    { location: 'fra-1', level: 'error', message: 'Unreachable', latency_ms: 40, checked_at: at },
                    {
                        location: 'sgp-1',
                        level: 'none',
                        message: 'No answer in time',
                        latency_ms: null,
                        checked_at: at,
                    },
                ],
            },
        },
        { monitorId: single, state: { alert: INITIAL_ALERT_STATE, memory: null } },
    ]);
});
afterAll(() => t?.close());

/** The page as a `web` process of the cluster renders it, with these monitors' latest checks as Redis holds them. */
async function scrape(checked: number[]): Promise<string> {
    const observation: Observation = {
        checkedAt: CHECKED_AT,
        succeededAt: CHECKED_AT,
        durationMs: 40,
        level: 'warning',
    };
    const shared: Pick<SharedObservations, 'all' | 'forget' | 'figures'> = {
        all: async () => new Map(checked.map((id) => [id, observation])),
        forget: async () => {},
        figures: async () => ({
            figures: { validators: new Map(), sources: new Map(), disks: new Map() },
            expired: [],
        }),
    };
    t.app.ctx.sharedState.observations = shared as SharedObservations;
    try {
        return (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
    } finally {
        t.app.ctx.sharedState.observations = null;
    }
}

describe('/metrics with probe locations', () => {
    it('has a series per location: its result, whether it answered and how long it took', async () => {
        const page = await scrape([several, single]);
        const monitor = `company="Validators",configuration="Sim mainnet",chain="cosmoshub",server="validator-1",monitor="Block production",monitor_id="${several}",type="blockCheck"`;
        const series = (name: string) => page.split('\n').filter((l) => l.startsWith(`${name}{`));
        expect(series('node_monitor_location_state')).toEqual([
            `node_monitor_location_state{${monitor},location="local"} 0`,
            `node_monitor_location_state{${monitor},location="fra-1"} 2`,
        ]);
        expect(series('node_monitor_location_answered')).toEqual([
            `node_monitor_location_answered{${monitor},location="local"} 1`,
            `node_monitor_location_answered{${monitor},location="fra-1"} 1`,
            `node_monitor_location_answered{${monitor},location="sgp-1"} 0`,
        ]);
        expect(series('node_monitor_location_check_duration_seconds')).toEqual([
            `node_monitor_location_check_duration_seconds{${monitor},location="local"} 0.0125`,
            `node_monitor_location_check_duration_seconds{${monitor},location="fra-1"} 0.04`,
        ]);
        // The per-monitor families are as before, one series per monitor.
        expect(series('node_monitor_monitor_state')).toEqual([
            `node_monitor_monitor_state{${monitor}} 1`,
            expect.stringContaining('monitor="Blocks from here"'),
        ]);
    });

    it('leaves the families out when no monitor on the page is checked from several locations', async () => {
        const page = await scrape([single]);
        expect(page).toMatch(/^node_monitor_monitor_state\{.*monitor="Blocks from here".*\} 1$/m);
        expect(page).not.toContain('node_monitor_location_');
    });

    it.runIf(withPromtool)('passes promtool check metrics', async () => {
        const res = spawnSync('promtool', ['check', 'metrics'], {
            input: await scrape([several, single]),
            encoding: 'utf8',
        });
        expect(`${res.stdout}${res.stderr}`.trim()).toBe('');
        expect(res.status).toBe(0);
    });
});
