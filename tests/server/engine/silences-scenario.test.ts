import { and, eq, like } from 'drizzle-orm';
import { auditEntries, incidents, monitors } from '../../../server/db/schema';
import { createSilence, endSilence } from '../../../server/silences/silences';
import { getIncident } from '../../../server/incidents/read';
import { createWindow, deleteWindow, endWindow } from '../../../server/silences/windows';
import type { ChainSim } from '../../../tools/chain-sim';
import { startChainSim } from '../../../tools/chain-sim';
import type { FakeTelegram } from '../../support/fake-telegram';
import { startFakeTelegram } from '../../support/fake-telegram';
import type { TestApp } from '../helpers';
import { persistentTestDatabase, seedCompany, startAppOn } from '../helpers';
import { seedNode, waitFor } from '../seed';

/**
 * Silences and maintenance windows end to end: the real engine and outbox against the chain simulator and a fake
 * Telegram. A halt inside a silence sends nothing; still down when it ends → one ALERT; recovered during it → nothing;
 * a maintenance window the same; a silence that ended while the console was stopped → one ALERT after the start,
 * not two.
 */
let telegram: FakeTelegram;
let db: Awaited<ReturnType<typeof persistentTestDatabase>>;
let t: TestApp;
let config: Parameters<typeof startAppOn>[0];
const sims: ChainSim[] = [];

beforeAll(async () => {
    telegram = await startFakeTelegram();
    db = await persistentTestDatabase();
    config = { ...db.config, engineEnabled: true, telegramApiUrl: telegram.url };
    t = await startAppOn(config);
});
afterAll(async () => {
    await t?.close();
    for (const sim of sims) await sim.close();
    await telegram.close();
    await db.drop();
});

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A company with one node, its blockCheck and its own Telegram chat. */
async function node(name: string, chat: string) {
    const sim = await startChainSim({ blockTimeMs: 200 });
    sims.push(sim);
    const companyId = await seedCompany(t.app, name);
    const seeded = await seedNode(t.app, {
        companyId,
        services: [{ type: 'rpc', address: sim.nodes[0]?.rpcUrl ?? '' }],
        monitor: {
            type: 'blockCheck',
            name: 'Block production',
            settings: {
                miss_tolerance: 2,
                miss_tolerance_period_seconds: 3,
                sleep_duration_seconds: 1,
                alert_sleep_duration_minutes: 60,
            },
        },
        telegram: { chatId: chat },
    });
    const row = async () => (await t.app.ctx.db.select().from(monitors).where(eq(monitors.id, seeded.monitorId)))[0];
    const kinds = () =>
        telegram.sent
            .filter((m) => String(m.chat_id) === chat)
            .map((m) => /<b>([A-Z ]+)<\/b>/.exec(m.text)?.[1] ?? m.text);
    /** Resolves once `n` more checks of the monitor were written. */
    const checks = async (n: number) => {
        for (let i = 0; i < n; i++) {
            const before = (await row())?.lastCheck?.getTime() ?? 0;
            await waitFor('the next check', async () => ((await row())?.lastCheck?.getTime() ?? 0) > before);
        }
    };
    await waitFor('a first healthy check', async () => (await row())?.lastCheck && (await row())?.status);
    return { ...seeded, companyId, sim, row, kinds, checks };
}

const incidentsOf = (monitorId: number) =>
    t.app.ctx.db.select().from(incidents).where(eq(incidents.monitorId, monitorId));

/** Lets the engine flush and the outbox make a pass: anything queued would have been sent by then. */
const quiet = () => pause(1500);

it('a halt inside a silence sends nothing; still down when it ends → one alert', { timeout: 90_000 }, async () => {
    const n = await node('Silenced Inc', '-2001');
    const silence = await createSilence(
        t.app.ctx,
        n.companyId,
        { monitor_id: n.monitorId, ends_at: inSeconds(3600), reason: 'Rebuilding the node' },
        'telegram:@ops'
    );
    n.sim.control.halt(0);
    await waitFor('the monitor in Error', async () => (await n.row())?.status === false);
    await n.checks(2);
    await quiet();
    expect(n.kinds()).toEqual([]);
    // Transitions are still audited, with a note that they were held back.
    const audited = await t.app.ctx.db
        .select({ message: auditEntries.message })
        .from(auditEntries)
        .where(and(eq(auditEntries.monitorId, n.monitorId), like(auditEntries.message, '%Entered Error%')));
    expect(audited[0]?.message).toMatch(/held back: silenced until .* UTC: Rebuilding the node/);
    // The outage is an incident from the moment it began, though nobody was told yet.
    const opened = await incidentsOf(n.monitorId);
    expect(opened.map((i) => i.status)).toEqual(['open']);

    await endSilence(t.app.ctx, n.companyId, silence.id, 'alice');
    await waitFor('the alert after the silence', () => n.kinds().length >= 1);
    await n.checks(2);
    await quiet();
    expect(n.kinds()).toEqual(['ALERT']);
    expect(telegram.sent.find((m) => m.chat_id === '-2001')?.text).toContain('Still in Error as the silence ended');
    // The alert after the silence belongs to that same incident.
    expect((await incidentsOf(n.monitorId)).map((i) => i.id)).toEqual(opened.map((i) => i.id));

    n.sim.control.resume(0);
    await waitFor('the recovery', () => n.kinds().length >= 2);
    expect(n.kinds()).toEqual(['ALERT', 'RECOVERED']);
});

it('a node that recovers during the silence sends nothing, during it or after', { timeout: 90_000 }, async () => {
    const n = await node('Recovered Inc', '-2002');
    const silence = await createSilence(
        t.app.ctx,
        n.companyId,
        { server_id: n.serverId, ends_at: inSeconds(3600), reason: 'Restarting' },
        'alice'
    );
    n.sim.control.halt(0);
    await waitFor('the monitor in Error', async () => (await n.row())?.status === false);
    n.sim.control.resume(0);
    await waitFor('the monitor healthy again', async () => (await n.row())?.status === true);
    await endSilence(t.app.ctx, n.companyId, silence.id, 'alice');
    await n.checks(2);
    await quiet();
    expect(n.kinds()).toEqual([]);
    // Nobody was told, but the outage is on record: one incident, opened and closed during the silence.
    expect((await incidentsOf(n.monitorId)).map((i) => i.status)).toEqual(['closed']);
});

it('a maintenance window holds alerts the same way, and one alert comes when it closes', {
    timeout: 90_000,
}, async () => {
    const n = await node('Window Inc', '-2003');
    const window = await createWindow(
        t.app.ctx,
        n.companyId,
        { configuration_id: n.configurationId, starts_at: inSeconds(-60), ends_at: inSeconds(3600), reason: 'Upgrade' },
        'alice'
    );
    n.sim.control.halt(0);
    await waitFor('the monitor in Error', async () => (await n.row())?.status === false);
    await n.checks(2);
    await quiet();
    expect(n.kinds()).toEqual([]);
    await deleteWindow(t.app.ctx, n.companyId, window.id, 'alice');
    await waitFor('the alert after the window', () => n.kinds().length >= 1);
    await n.checks(2);
    await quiet();
    expect(n.kinds()).toEqual(['ALERT']);
    n.sim.control.resume(0);
    await waitFor('the monitor healthy again', async () => (await n.row())?.status === true);
});

it('an alerted node that recovers inside a window: the timeline says RECOVERED held until its end, sent then', {
    timeout: 90_000,
}, async () => {
    const n = await node('Held Inc', '-2005');
    n.sim.control.halt(0);
    await waitFor('the alert', () => n.kinds().length >= 1);
    const endsAt = inSeconds(3600);
    const window = await createWindow(
        t.app.ctx,
        n.companyId,
        { server_id: n.serverId, starts_at: inSeconds(-60), ends_at: endsAt, reason: 'Restarting' },
        'alice'
    );
    n.sim.control.resume(0);
    await waitFor('the monitor healthy again', async () => (await n.row())?.status === true);
    await n.checks(2);
    await quiet();
    expect(n.kinds()).toEqual(['ALERT']);
    const [closed] = await incidentsOf(n.monitorId);
    expect(closed?.status).toBe('closed');
    const timeline = (await getIncident(t.app.ctx.db, n.companyId, closed?.id ?? '', Date.now())).timeline ?? [];
    const held = timeline.find((e) => e.kind === 'recovery-held');
    expect(held?.until).toBe(endsAt);
    expect(held?.text).toBe(`RECOVERED held until ${endsAt.replace('T', ' ').slice(0, 19)} UTC`);

    await endWindow(t.app.ctx, n.companyId, window.id, 'alice');
    await waitFor('the recovery as the window ends', () => n.kinds().length >= 2);
    await quiet();
    expect(n.kinds()).toEqual(['ALERT', 'RECOVERED']);
});

it('a silence that ends while the console is stopped: one alert after the start, not two', {
    timeout: 120_000,
}, async () => {
    const n = await node('Restart Inc', '-2004');
    const endsAt = Date.now() + 8000;
    await createSilence(
        t.app.ctx,
        n.companyId,
        { monitor_id: n.monitorId, ends_at: new Date(endsAt).toISOString(), reason: 'Short maintenance' },
        'alice'
    );
    n.sim.control.halt(0);
    await waitFor('the monitor in Error', async () => (await n.row())?.status === false);
    await n.checks(1);
    await t.close();
    expect(n.kinds()).toEqual([]);
    await pause(Math.max(0, endsAt - Date.now()) + 500);

    t = await startAppOn(config);
    await waitFor('the alert after the start', () => n.kinds().length >= 1);
    await n.checks(2);
    // A second restart does not send it again.
    await t.close();
    t = await startAppOn(config);
    await n.checks(3);
    await quiet();
    expect(n.kinds()).toEqual(['ALERT']);
});
