import { eq } from 'drizzle-orm';
import { configurations, monitors, servers, services } from '../../../../server/db/schema';
import { type ChainSim, startChainSim } from '../../../../tools/chain-sim';
import { type FakeTelegram, startFakeTelegram } from '../../../support/fake-telegram';
import { createTestApp, seedCompany, type TestApp } from '../../helpers';
import { seedNode, waitFor } from '../../seed';

/**
 * The validator's node stalls: its block check alerts for the node, the duty monitors see the misses through the
 * sentry, and the channel gets one ALERT for the node and one for signing, not one per duty monitor.
 */
let t: TestApp;
let telegram: FakeTelegram;
let sim: ChainSim;

beforeAll(async () => {
    telegram = await startFakeTelegram();
    sim = await startChainSim({ blockTimeMs: 300, signedBlocksWindow: 100, nodes: 2 });
    t = await createTestApp({ engineEnabled: true, telegramApiUrl: telegram.url });
});
afterAll(async () => {
    await t?.close();
    await sim?.close();
    await telegram?.close();
});

const node = (i: number) => {
    const n = sim.nodes[i];
    if (!n) throw new Error(`no node ${i}`);
    return n;
};

it('a stalled validator node: one ALERT for the node, one for signing, the jail held as part of it', {
    timeout: 120_000,
}, async () => {
    const companyId = await seedCompany(t.app, 'Grouping');
    const valoper = sim.chain.ours.valoper;
    // No reminders within the test: every message the channel gets is an ALERT or a RECOVERED.
    const quiet = { sleep_duration_seconds: 1, alert_sleep_duration_minutes: 600 };
    const { configurationId, serverId, monitorId } = await seedNode(t.app, {
        companyId,
        services: [
            { type: 'rpc', address: node(0).rpcUrl },
            { type: 'rest', address: node(0).restUrl },
        ],
        monitor: {
            type: 'signMissCheck',
            name: 'Signing',
            settings: { valoper_address: valoper, miss_tolerance: 5, miss_tolerance_period_seconds: 600, ...quiet },
        },
        telegram: { chatId: '-4001' },
    });
    const db = t.app.ctx.db;
    const [sentry] = await db
        .insert(servers)
        .values({ configurationId, name: 'sentry-1', address: 'http://127.0.0.1' })
        .returning();
    if (!sentry) throw new Error('no sentry');
    await db.insert(services).values([
        { serverId: sentry.id, name: 'rpc', type: 'rpc', address: node(1).rpcUrl },
        { serverId: sentry.id, name: 'rest', type: 'rest', address: node(1).restUrl },
    ]);
    const others = await db
        .insert(monitors)
        .values(
            (
                [
                    ['Blocks', 'blockCheck', { miss_tolerance: 2, miss_tolerance_period_seconds: 600, ...quiet }],
                    ['Jail budget', 'slashingWindow', { valoper_address: valoper, error_percent: 20, ...quiet }],
                    ['Active set', 'validatorOutOfActiveSet', { valoper_address: valoper, ...quiet }],
                ] as const
            ).map(([name, type, settings]) => ({
                configurationId,
                serverId,
                name,
                type,
                configurationObject: JSON.stringify(settings),
            }))
        )
        .returning();
    await db.update(configurations).set({ updatedAt: new Date() }).where(eq(configurations.id, configurationId));
    t.app.ctx.events.emit({ name: 'MONITOR_CREATED', monitorId });
    const ids = [monitorId, ...others.map((m) => m.id)];
    const rows = async () => db.select().from(monitors).where(eq(monitors.configurationId, configurationId));
    await waitFor('healthy first checks', async () =>
        (await rows()).every((r) => ids.includes(r.id) && r.lastCheck && r.status && r.lastError === null)
    );

    // The validator's node stops; the chain goes on without its signatures, then jails it.
    sim.control.halt(0);
    await waitFor(
        'the node and signing in Error, the jail budget above its error line',
        async () => {
            const r = await rows();
            const down = (name: string) => r.find((m) => m.name === name)?.status === false;
            return down('Blocks') && down('Signing') && down('Jail budget');
        },
        60_000
    );
    sim.control.jail();
    await waitFor('the jail seen through the sentry', async () => {
        const r = await rows();
        return r.find((m) => m.name === 'Active set')?.status === false;
    });
    await waitFor('two alerts', () => telegram.sent.length >= 2);
    await new Promise((r) => setTimeout(r, 3000));
    const alerts = telegram.sent.map((m) => m.text ?? '');
    expect(alerts).toHaveLength(2);
    expect(alerts.every((a) => a.includes('ALERT'))).toBe(true);
    expect(alerts.some((a) => a.includes('Blocks'))).toBe(true);
    expect(alerts.some((a) => a.includes('Signing') && a.includes('read through sentry-1'))).toBe(true);
    // The held ones are still in Error on the console, saying what they see.
    const r = await rows();
    expect(r.find((m) => m.name === 'Jail budget')?.lastError).toMatch(/is jailed.*read through sentry-1/);
});
