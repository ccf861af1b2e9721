import { and, eq, inArray } from 'drizzle-orm';
import { monitors, outbox } from '../../server/db/schema';
import { waitFor } from '../server/seed';
import { type ClusterEnv, clusterEnv } from './cluster-env';
import { dutyHolders } from './duty-lock';
import { type ConsoleProcess, stopConsole } from './processes';
import { blockCheck, blockCheckSettings, rpcService, seedServer, seedTenant } from './seed';

/**
 * The checks judged together across monitors (chain-halt pooling, upgrade holds, duty groups) with three real
 * `worker` processes: they run in the one worker that holds the cluster-wide duties' lock, so a halted chain is
 * judged as in one process. Three nodes of one chain, two blockChecks on each, every 2 s. The cases run in order.
 */

let cluster: ClusterEnv;
const workers: ConsoleProcess[] = [];
const monitorIds: number[] = [];

const holderPid = async () => (await dutyHolders(cluster))[0]?.pid ?? null;

/** A blockCheck's state change is logged (at warn while failing) by the process that ran the check. */
const ranChecks = (w: ConsoleProcess) => w.output.some((chunk) => /\(blockCheck\)/.test(chunk));

const lastChecks = async () =>
    cluster.db
        .select({ id: monitors.id, lastCheck: monitors.lastCheck })
        .from(monitors)
        .where(inArray(monitors.id, monitorIds));

beforeAll(async () => {
    cluster = await clusterEnv({ name: 'chainlevel', sim: { blockTimeMs: 500, nodes: 3 } });
    const channel = { token: '123456:CHAINLEVEL-token', chat: '-4545' };
    const { configurationId } = await seedTenant(cluster, 'Chain level', channel);
    for (const [i, node] of cluster.sim.nodes.entries()) {
        const serverId = await seedServer(cluster, configurationId, rpcService(node.rpcUrl), {
            name: `validator-${i + 1}`,
        });
        const rows = await cluster.db
            .insert(monitors)
            .values(
                [1, 2].map((j) =>
                    blockCheck({ configurationId, serverId }, `height-${i + 1}-${j}`, blockCheckSettings(2, 2, 60))
                )
            )
            .returning({ id: monitors.id });
        monitorIds.push(...rows.map((r) => r.id));
    }
    workers.push(...(await Promise.all([1, 2, 3].map(() => cluster.start('worker')))));
}, 180_000);

afterAll(() => cluster?.stop());

describe('the checks judged across monitors, with three workers', () => {
    it('are scheduled on the chain queue only, which the lock holder alone consumes', async () => {
        const ids = monitorIds.map(String).sort();
        await waitFor('the chain schedulers', async () => {
            const chain = await cluster.redis.schedulers('chain');
            return ids.every((id) => chain.has(id)) && chain.size === ids.length;
        });
        expect([...(await cluster.redis.schedulers('main')).keys()]).toEqual([]);
        await waitFor('a holder', holderPid, 20_000);
        await waitFor('a first check of every monitor', async () =>
            (await lastChecks()).every((r) => r.lastCheck !== null)
        );
    });

    it('remove a scheduler left in the wrong queue, and one of no monitor, at the next reconcile', async () => {
        const moved = String(monitorIds[0]);
        const every = { every: 2000 };
        const job = { name: 'check', data: { monitorId: monitorIds[0] } };
        await cluster.redis.queue.upsertJobScheduler(moved, every, job);
        await cluster.redis.chainQueue.upsertJobScheduler('999999', every, {
            name: 'check',
            data: { monitorId: 999999 },
        });
        expect((await cluster.redis.schedulers('main')).has(moved)).toBe(true);
        // Any change makes every worker reload its monitors and reconcile.
        await cluster.redis.emit({ name: 'MONITOR_UPDATED', monitorId: monitorIds[0] });
        await waitFor('the schedulers back in order', async () => {
            const [main, chain] = [await cluster.redis.schedulers('main'), await cluster.redis.schedulers('chain')];
            return main.size === 0 && chain.size === monitorIds.length && !chain.has('999999');
        });
        expect([...(await cluster.redis.schedulers('chain')).keys()].sort()).toEqual(monitorIds.map(String).sort());
    });

    it('send one CHAIN STALLED for a halted chain and no ALERT per node, all from the lock holder', async () => {
        cluster.sim.control.halt();
        const stalled = () => cluster.telegram.sent.filter((m) => m.text.includes('CHAIN STALLED'));
        await waitFor('the CHAIN STALLED message', () => stalled().length > 0, 60_000);
        // Every monitor has been checked many times in Error since: a second halt or an ALERT would be out by now.
        await new Promise((r) => setTimeout(r, 15_000));
        expect(stalled()).toHaveLength(1);
        const alerts = await cluster.db
            .select({ id: outbox.id })
            .from(outbox)
            .where(and(eq(outbox.kind, 'alert'), inArray(outbox.monitorId, monitorIds)));
        expect(alerts).toEqual([]);
        expect(cluster.telegram.sent.filter((m) => /\bALERT\b/.test(m.text))).toEqual([]);
        const pid = await holderPid();
        expect(workers.filter(ranChecks).map((w) => w.child.pid)).toEqual([pid]);
    }, 120_000);

    it('go on in another worker within 20 s of the holder killed with -9', async () => {
        const pid = await waitFor('a holder', holderPid, 20_000);
        const victim = workers.find((w) => w.child.pid === pid) as ConsoleProcess;
        const killedAt = new Date();
        await stopConsole(victim, 'SIGKILL');
        await waitFor(
            'a check of every chain-level monitor after the kill',
            async () => (await lastChecks()).every((r) => r.lastCheck && new Date(r.lastCheck) > killedAt),
            20_000
        );
        const next = await holderPid();
        expect(next).not.toBe(pid);
        expect(workers.filter((w) => w !== victim).map((w) => w.child.pid)).toContain(next);
    }, 60_000);
});
