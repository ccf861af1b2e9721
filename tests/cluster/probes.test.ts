import { existsSync } from 'node:fs';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { LocationResult } from '../../common/locations';
import { checkResults, incidents, monitors, monitorStates } from '../../server/db/schema';
import { waitFor } from '../server/seed';
import { type ClusterEnv, clusterEnv } from './cluster-env';
import { createNetns, type Netns } from './netns';
import { type ConsoleProcess, REDIS_URL, stopConsole } from './processes';
import {
    blockCheck,
    blockCheckSettings,
    rpcService,
    seedCompany,
    seedConfiguration,
    seedServer,
    seedTelegramChannel,
} from './seed';

/**
 * Probes in several places with real processes: one worker in location `local` (PostgreSQL and Redis),
 * a probe `sgp-1` and a probe `fra-1` started with only REDIS_URL and PROBE_LOCATION, `fra-1` inside a network
 * namespace of its own whose way to the node is cut mid-test. blockCheck monitors every 5 s with `confirm: 2`, all
 * of two simulated nodes: company Probes has two configurations sharing one Telegram chat, with one monitor naming
 * its three locations and two taking every live location; company Others has one monitor and a chat of its own. The cases
 * share the processes and run in order.
 */
let cluster: ClusterEnv;
let netns: Netns;
const probes: ConsoleProcess[] = [];
let named: number;
/** Every monitor: Probes' three (the third on the second node), then Others' one. */
let every: number[];
/** The monitors of the first node, which halts. */
let firstNode: number[];
const CHATS = { probes: '-1001', others: '-2002' } as const;

const row = async (id: number) => {
    const [m] = await cluster.db
        .select({ status: monitors.status, lastError: monitors.lastError })
        .from(monitors)
        .where(eq(monitors.id, id));
    const [s] = await cluster.db.select().from(monitorStates).where(eq(monitorStates.monitorId, id));
    return { ...m, locations: (s?.state as { locations?: LocationResult[] } | undefined)?.locations ?? [] };
};
const incidentsOf = (ids: number[]) =>
    cluster.db.select({ monitorId: incidents.monitorId }).from(incidents).where(inArray(incidents.monitorId, ids));
/** The messages a company's chat received whose text holds `heading`. */
const received = (chat: keyof typeof CHATS, heading: string) =>
    cluster.telegram.sent.filter((m) => String(m.chat_id) === CHATS[chat] && m.text.includes(heading));
const eachChat = (heading: string, n = 1) =>
    received('probes', heading).length >= n && received('others', heading).length >= n;

beforeAll(async () => {
    netns = await createNetns();
    // The node listens where the host and the namespace both reach it, until the namespace's route is cut.
    cluster = await clusterEnv({ name: 'probes', sim: { blockTimeMs: 500, nodes: 2, host: netns.nodeIp } });
    const token = '123456:PROBES-token';
    const monitor = (on: { configurationId: number; serverId: number }, name: string, locations: string[] | null) => ({
        ...blockCheck(on, name, blockCheckSettings(5)),
        locations,
        confirm: 2,
    });
    /** A company whose configurations all tell one Telegram chat, each with a server on the simulated node. */
    const company = async (name: string, chat: string, chains: [string, number][]) => {
        const companyId = await seedCompany(cluster, name, ['10.232.0.0/16']);
        const out: { configurationId: number; serverId: number }[] = [];
        for (const [chain, node] of chains) {
            const configurationId = await seedConfiguration(cluster, companyId, `Sim ${chain}`, chain);
            const rpc = rpcService(cluster.sim.nodes[node]?.rpcUrl);
            const serverId = await seedServer(cluster, configurationId, rpc, { address: `http://${netns.nodeIp}` });
            out.push({ configurationId, serverId });
        }
        const configurationIds = out.map((c) => c.configurationId);
        await seedTelegramChannel(cluster, { companyId, configurationIds, name: `${name} chat`, token, chat });
        return out;
    };
    // The testnet configuration reads the second node, which goes on when the first halts (no chain halt).
    const [hub, test] = await company('Probes', CHATS.probes, [
        ['cosmoshub', 0],
        ['theta-testnet', 1],
    ]);
    const [other] = await company('Others', CHATS.others, [['cosmoshub', 0]]);
    if (!hub || !test || !other) throw new Error('no configuration');
    const rows = await cluster.db
        .insert(monitors)
        .values([
            monitor(hub, 'named', ['local', 'fra-1', 'sgp-1']),
            monitor(hub, 'every', null),
            monitor(test, 'testnet', null),
            monitor(other, 'others', null),
        ])
        .returning({ id: monitors.id });
    every = rows.map((r) => r.id);
    named = every[0] as number;
    firstNode = [every[0], every[1], every[3]] as number[];
    // fra-1 reaches the host's Redis, which listens on loopback only, through a forwarder on the namespace's link.
    const redis = new URL(REDIS_URL);
    const forwarded = await netns.forward({ host: '127.0.0.1', port: Number(redis.port || 6379) });
    probes.push(await cluster.startProbe('sgp-1'));
    probes.push(await cluster.startProbe('fra-1', `redis://${netns.hostIp}:${forwarded}${redis.pathname}`, netns.name));
    await cluster.start('worker');
}, 180_000);

afterAll(async () => {
    await cluster?.stop();
    await netns?.close();
});

describe('probes in several places', () => {
    it('reads every monitor from the three locations, two of them probes without a database', async () => {
        for (const id of every) {
            const seen = await waitFor(
                `monitor ${id} read from three locations`,
                async () => {
                    const r = await row(id);
                    return r.locations.length === 3 && r.locations.every((l) => l.level === 'ok') ? r : null;
                },
                40_000
            );
            expect(seen.locations.map((l) => l.location).sort()).toEqual(['fra-1', 'local', 'sgp-1']);
            for (const l of seen.locations) expect(l.latency_ms).toEqual(expect.any(Number));
            expect(seen).toMatchObject({ status: true, lastError: null });
        }
        // The check history keeps what each location saw.
        const kept = await waitFor(
            'a check kept with its locations',
            async () => {
                const rows = await cluster.db
                    .select({ locations: checkResults.locations })
                    .from(checkResults)
                    .where(and(inArray(checkResults.monitorId, every), isNotNull(checkResults.locations)));
                return rows.find((r) => r.locations?.split(',').every((l) => l.endsWith(':o')));
            },
            20_000
        );
        expect(kept.locations?.split(',').sort()).toEqual(['fra-1:o', 'local:o', 'sgp-1:o']);
        // The probes wrote no key file: they hold no secret.
        expect(existsSync(`${cluster.probeDataDir}/secret.key`)).toBe(false);
    }, 60_000);

    it('tells each company once that fra-1 lost its network, with its own counts, and pages no one', async () => {
        netns.cutNode();
        const cutAt = Date.now();
        await waitFor('PROBE LOST ITS NETWORK in each chat', () => eachChat('PROBE LOST ITS NETWORK'), 60_000);
        expect(Date.now() - cutAt).toBeLessThan(60_000);
        // fra-1's readings count neither way now: every monitor is Ok on local's and sgp-1's word, naming nothing.
        for (const id of every)
            await waitFor(
                `monitor ${id} Ok without fra-1`,
                async () => {
                    const r = await row(id);
                    const fra = r.locations.find((l) => l.location === 'fra-1');
                    return r.status && r.lastError === null && fra?.level === 'error' ? r : null;
                },
                30_000
            );
        // Several more checks while fra-1 stays cut: no second notice, no Error, no incident, no message per monitor.
        await new Promise((r) => setTimeout(r, 15_000));
        for (const id of every) expect((await row(id)).status).toBe(true);
        expect(await incidentsOf(every)).toEqual([]);
        const [probesCut, othersCut] = [received('probes', 'LOST'), received('others', 'LOST')];
        expect(probesCut).toHaveLength(1);
        expect(othersCut).toHaveLength(1);
        // Each company hears of its own targets only: Probes' chat serves two configurations, and is told once.
        expect(probesCut[0]?.text).toContain('Probe fra-1 lost its network: 3 of 3 targets unreachable from it only');
        expect(probesCut[0]?.text).toContain('Company: Probes');
        expect(othersCut[0]?.text).toContain('Probe fra-1 lost its network: 1 of 1 targets unreachable from it only');
        expect(othersCut[0]?.text).toContain('Company: Others');
        expect(cluster.telegram.sent.map((m) => m.text.split('\n')[0])).toEqual([
            expect.stringContaining('PROBE LOST ITS NETWORK'),
            expect.stringContaining('PROBE LOST ITS NETWORK'),
        ]);
    }, 150_000);

    it('names a probe killed with -9 within a minute, counts it toward nothing, and says when it is back', async () => {
        const sgp = probes[0] as ConsoleProcess;
        const killedAt = Date.now();
        await stopConsole(sgp, 'SIGKILL');
        await waitFor('PROBE STOPPED REPORTING in each chat', () => eachChat('PROBE STOPPED REPORTING'), 60_000);
        const namedAfter = Date.now() - killedAt;
        expect(namedAfter).toBeLessThan(60_000);
        const [probesSilent, othersSilent] = [received('probes', 'STOPPED'), received('others', 'STOPPED')];
        expect(probesSilent).toHaveLength(1);
        expect(othersSilent).toHaveLength(1);
        expect(probesSilent[0]?.text).toContain('Probe sgp-1 stopped reporting: 3 monitors check from it');
        expect(othersSilent[0]?.text).toContain('Probe sgp-1 stopped reporting: 1 monitor checks from it');
        // The monitor naming sgp-1 shows it silent; with fra-1 left out only local counts, which sees the node up.
        const silent = await waitFor(
            'no answer from sgp-1',
            async () => {
                const r = await row(named);
                return r.locations.find((l) => l.location === 'sgp-1')?.level === 'none' ? r : null;
            },
            60_000
        );
        expect(silent.locations.find((l) => l.location === 'sgp-1')).toMatchObject({ level: 'none', latency_ms: null });
        expect(silent.status).toBe(true);
        expect(await incidentsOf(every)).toEqual([]);
        probes[0] = await cluster.startProbe('sgp-1');
        await waitFor('PROBE REPORTING AGAIN in each chat', () => eachChat('PROBE REPORTING AGAIN'), 60_000);
        await waitFor(
            'sgp-1 answering again',
            async () => (await row(named)).locations.find((l) => l.location === 'sgp-1')?.level === 'ok',
            60_000
        );
        expect(received('probes', 'STOPPED')).toHaveLength(1);
        expect(received('others', 'REPORTING AGAIN')).toHaveLength(1);
    }, 180_000);

    it('confirms a halted node from the two healthy locations and pages once for its server, fra-1 still left out', async () => {
        cluster.sim.control.halt(0);
        for (const id of firstNode) {
            const failed = await waitFor(
                `monitor ${id} in Error`,
                async () => {
                    const r = await row(id);
                    return r.status === false ? r : null;
                },
                90_000
            );
            expect(failed.lastError).toContain('down from local, sgp-1');
            expect(failed.lastError).toContain('left out: fra-1 (probe lost its network)');
        }
        // More checks of the halted node open no second incident and send no second alert; fra-1, down like
        // everyone, is no evidence that its network is back.
        await new Promise((r) => setTimeout(r, 12_000));
        const opened = await incidentsOf(every);
        expect(opened.map((i) => i.monitorId).sort()).toEqual([...firstNode].sort());
        // Both of Probes' monitors of the node are on its server: one SERVER DOWN names them; Others' one alerts alone.
        await waitFor('a SERVER DOWN for the node', () => received('probes', 'SERVER DOWN').length === 1, 30_000);
        await waitFor('an ALERT for Others', () => received('others', 'ALERT').length === 1, 30_000);
        expect(received('probes', 'SERVER DOWN')).toHaveLength(1);
        expect(received('probes', 'SERVER DOWN')[0]?.text).toContain('2 monitors failing');
        expect(received('probes', 'ALERT')).toEqual([]);
        expect(received('others', 'ALERT')).toHaveLength(1);
        expect(received('probes', 'PROBE NETWORK BACK')).toEqual([]);
    }, 180_000);

    it('tells each company once that fra-1 reaches its targets again, and the node recovers', async () => {
        cluster.sim.control.resume(0);
        netns.restoreNode();
        await waitFor('PROBE NETWORK BACK in each chat', () => eachChat('PROBE NETWORK BACK'), 60_000);
        for (const id of every)
            await waitFor(
                `monitor ${id} read Ok from three locations`,
                async () => {
                    const r = await row(id);
                    return r.status && r.locations.every((l) => l.level === 'ok');
                },
                60_000
            );
        await new Promise((r) => setTimeout(r, 10_000));
        expect(received('probes', 'PROBE NETWORK BACK')).toHaveLength(1);
        expect(received('others', 'PROBE NETWORK BACK')).toHaveLength(1);
        expect(received('probes', 'LOST')).toHaveLength(1);
    }, 150_000);
});
