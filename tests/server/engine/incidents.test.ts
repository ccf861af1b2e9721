import { eq } from 'drizzle-orm';
import type { MonitorType } from '../../../common/monitor-types';
import type { ServiceType } from '../../../common/service-types';
import { monitors } from '../../../server/db/schema';
import type { ChainSim, SimOptions } from '../../../tools/chain-sim';
import { startChainSim } from '../../../tools/chain-sim';
import type { FakeTelegram } from '../../support/fake-telegram';
import { startFakeTelegram } from '../../support/fake-telegram';
import type { TestApp } from '../helpers';
import { createTestApp, seedCompany } from '../helpers';
import { seedNode, waitFor } from '../seed';

/**
 * Issue: "the same holds for a jailed validator, missed signatures, oracle misses and a full disk". Each case runs the
 * real engine and outbox against the chain simulator and a fake Telegram: inject the fault → exactly one ALERT,
 * clear it → exactly one RECOVERED, then a quiet period with nothing more. Cases may also check, before the fault,
 * that a look-alike condition (nil votes, a counter reset, a full tmpfs) does not alert.
 */

interface CaseContext {
    sim: ChainSim;
    /** Messages received in this case's chat, in order. */
    texts(): string[];
    /** The monitor row (health as the engine last wrote it). */
    row(): Promise<typeof monitors.$inferSelect | undefined>;
    /** Resolves after `n` more checks of the monitor were written (status/last_check). */
    checks(n: number): Promise<void>;
}

interface IncidentCase {
    name: string;
    type: MonitorType;
    sim?: SimOptions;
    /** The configuration's chain (decides the oracle path, the bech32 prefix). */
    chain?: string;
    services: (sim: ChainSim) => { type: ServiceType; address: string }[];
    settings: (sim: ChainSim) => Record<string, unknown>;
    /** Simulator state before the monitor's first check (it must still be healthy). */
    prepare?: (sim: ChainSim) => void;
    /** Before the fault, with the monitor healthy: a condition that must not alert. */
    harmless?: (c: CaseContext) => Promise<void>;
    inject: (sim: ChainSim) => void;
    /** What the alert must say. */
    alert: RegExp[];
    /** While alerting, before the fault is cleared. */
    whileAlerting?: (c: CaseContext) => Promise<void>;
    clear: (sim: ChainSim) => void;
}

const valoper = (sim: ChainSim) => sim.chain.ours.valoper;

const cases: IncidentCase[] = [
    {
        name: 'validatorOutOfActiveSet: jailed',
        type: 'validatorOutOfActiveSet',
        services: (sim) => [{ type: 'rest', address: sim.nodes[0]?.restUrl ?? '' }],
        settings: (sim) => ({
            sleep_duration_seconds: 1,
            alert_sleep_duration_minutes: 60,
            valoper_address: valoper(sim),
        }),
        inject: (sim) => sim.control.jail(),
        alert: [/Validator our-validator is jailed until \d{4}-/, /unbonding/],
        clear: (sim) => sim.control.unjail(),
    },
    {
        name: 'signMissCheck: absent signatures (nil votes do not count)',
        type: 'signMissCheck',
        sim: { blockTimeMs: 200 },
        services: (sim) => [
            { type: 'rpc', address: sim.nodes[0]?.rpcUrl ?? '' },
            { type: 'rest', address: sim.nodes[0]?.restUrl ?? '' },
        ],
        settings: (sim) => ({
            miss_tolerance: 3,
            miss_tolerance_period_seconds: 3,
            sleep_duration_seconds: 1,
            alert_sleep_duration_minutes: 60,
            valoper_address: valoper(sim),
        }),
        harmless: async (c) => {
            // A nil vote (flag 3) is a signature in x/slashing: neither a miss nor a warning.
            const from = c.sim.chain.height;
            c.sim.control.missSignatures({ mode: 'nil' });
            await c.sim.control.waitForHeight(from + 10, 10_000);
            await c.checks(2);
            c.sim.control.clearMiss();
            const row = await c.row();
            expect(row?.status).toBe(true);
            expect(row?.lastError).toBeNull();
            expect(c.sim.chain.ours.state.signing.missedBlocksCounter).toBe(0);
        },
        inject: (sim) => sim.control.missSignatures({ mode: 'absent' }),
        alert: [/Missed \d+ of the last \d+ blocks \(tolerance 3\)/],
        clear: (sim) => sim.control.clearMiss(),
    },
    {
        name: 'priceFeederMissCount: oracle misses (a counter reset re-baselines)',
        type: 'priceFeederMissCount',
        sim: { oracle: 'kujira', bech32Prefix: 'kujira' },
        chain: 'kujira',
        services: (sim) => [{ type: 'rest', address: sim.nodes[0]?.restUrl ?? '' }],
        settings: (sim) => ({
            miss_tolerance: 3,
            miss_tolerance_period_seconds: 3,
            sleep_duration_seconds: 1,
            alert_sleep_duration_minutes: 60,
            valoper_address: valoper(sim),
        }),
        // A counter already at 40 when monitoring starts is the baseline, not 40 misses.
        prepare: (sim) => sim.control.setOracleMiss(40),
        harmless: async (c) => {
            // The slash window ends: 40 → 0. A fall moves the baseline; it is no miss.
            await c.checks(1);
            c.sim.control.resetOracleMiss();
            await c.checks(2);
            c.sim.control.raiseOracleMiss(2); // below the tolerance: a warning, never sent
            await c.checks(2);
            const row = await c.row();
            expect(row?.status).toBe(true);
            expect(row?.lastError).toMatch(/rose by 2 .*counter now 2/);
            // Let the rise of 2 age out of the period before the real incident.
            await new Promise((r) => setTimeout(r, 3200));
            await c.checks(1);
            expect((await c.row())?.lastError).toBeNull();
        },
        inject: (sim) => sim.control.raiseOracleMiss(3),
        alert: [/Oracle miss counter rose by 3 in the period \(tolerance 3\); counter now 5/],
        whileAlerting: async (c) => {
            // The window ends mid-incident: no second alert, and the incident stays open until the period passes.
            c.sim.control.resetOracleMiss();
            await c.checks(1);
            expect((await c.row())?.status).toBe(false);
        },
        clear: () => {
            // Nothing to undo: no new misses for miss_tolerance_period_seconds is the recovery.
        },
    },
    {
        name: 'nodeExporterDiskSpace: / full (a full tmpfs does not count)',
        type: 'nodeExporterDiskSpace',
        services: (sim) => [{ type: 'node_exporter', address: sim.nodes[0]?.nodeExporterUrl ?? '' }],
        settings: () => ({ threshold: 80, check_interval_seconds: 5, alert_sleep_duration_minutes: 60 }),
        // Full tmpfs mounts from the start: the first check must still be healthy.
        prepare: (sim) => {
            sim.control.setDisk(0, '/run', { percent: 100 });
            sim.control.setDisk(0, '/run/lock', { percent: 100 });
            sim.control.setDisk(0, '/dev/shm', { percent: 100 });
        },
        inject: (sim) => sim.control.setDisk(0, '/', { percent: 91 }),
        alert: [/\/ is 91\.0% full \(threshold 80%\)/],
        clear: (sim) => sim.control.setDisk(0, '/', { percent: 50 }),
    },
];

let t: TestApp;
let telegram: FakeTelegram;

beforeAll(async () => {
    telegram = await startFakeTelegram();
    t = await createTestApp({ engineEnabled: true, telegramApiUrl: telegram.url });
});
afterAll(async () => {
    await t?.close();
    await telegram?.close();
});

it.each(cases.map((c, i) => ({ ...c, chat: `-100${i + 1}` })))(
    '$name: one alert, one recovery',
    { timeout: 45_000 },
    async (c) => {
        const sim = await startChainSim({ blockTimeMs: 500, ...c.sim });
        const db = t.app.ctx.db;
        let monitorId = 0;
        try {
            c.prepare?.(sim);
            const companyId = await seedCompany(t.app, c.name);
            ({ monitorId } = await seedNode(t.app, {
                companyId,
                chain: c.chain,
                services: c.services(sim),
                monitor: { type: c.type, name: c.name, settings: c.settings(sim) },
                telegram: { chatId: c.chat },
            }));
            const ctx: CaseContext = {
                sim,
                texts: () => telegram.sent.filter((m) => String(m.chat_id) === c.chat).map((m) => m.text),
                row: async () => (await db.select().from(monitors).where(eq(monitors.id, monitorId)))[0],
                async checks(n) {
                    for (let i = 0; i < n; i++) {
                        const before = (await ctx.row())?.lastCheck?.getTime() ?? 0;
                        await waitFor(
                            'the next check',
                            async () => ((await ctx.row())?.lastCheck?.getTime() ?? 0) > before
                        );
                    }
                },
            };
            const kinds = () =>
                ctx.texts().map((text) => /<b>(ALERT|STILL FAILING|RECOVERED)<\/b>/.exec(text)?.[1] ?? text);
            await waitFor('a first healthy check', async () => {
                const row = await ctx.row();
                return row?.lastCheck && row.status && row.lastError === null;
            });

            if (c.harmless) await c.harmless(ctx);
            // Give the outbox a pass: anything queued by the harmless phase would show now.
            await new Promise((r) => setTimeout(r, 1200));
            expect(kinds()).toEqual([]);

            c.inject(sim);
            await waitFor('the alert', () => ctx.texts().length >= 1);
            expect(kinds()).toEqual(['ALERT']);
            const alert = ctx.texts()[0] ?? '';
            for (const re of c.alert) expect(alert).toMatch(re);
            expect(alert).toContain(`Monitor: ${c.name} (${c.type})`);
            expect((await ctx.row())?.status).toBe(false);
            if (c.whileAlerting) await c.whileAlerting(ctx);

            c.clear(sim);
            await waitFor('the recovery', () => ctx.texts().length >= 2);
            expect(kinds()).toEqual(['ALERT', 'RECOVERED']);
            expect(ctx.texts()[1]).toMatch(/Was down for \d+ s/);
            // The incident is the same one in both messages.
            const incident = (text: string | undefined) => /Incident (\w+)/.exec(text ?? '')?.[1];
            expect(incident(ctx.texts()[1])).toBe(incident(alert));

            // Quiet: more checks pass (one at least) and nothing else is sent.
            await ctx.checks(1);
            await new Promise((r) => setTimeout(r, 1500));
            expect(kinds()).toEqual(['ALERT', 'RECOVERED']);
            const row = await ctx.row();
            expect(row?.status).toBe(true);
            expect(row?.lastError).toBeNull();
        } finally {
            // Stop the monitor before the simulator goes away, so its failing reads cannot leak into the next case.
            if (monitorId) {
                await db.update(monitors).set({ isEnabled: false }).where(eq(monitors.id, monitorId));
                t.app.ctx.events.emit({ name: 'MONITOR_UPDATED', monitorId });
                await new Promise((r) => setTimeout(r, 400));
            }
            await sim.close();
        }
    }
);
