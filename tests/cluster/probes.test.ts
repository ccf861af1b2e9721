import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import type { LocationResult } from '../../common/locations';
import { type Database, openDatabase } from '../../server/db/client';
import {
    companies,
    configurations,
    incidents,
    monitors,
    monitorStates,
    servers,
    services,
} from '../../server/db/schema';
import { type ChainSim, startChainSim } from '../../tools/chain-sim';
import { waitFor } from '../server/seed';
import { createNetns, type Netns } from './netns';
import { type ConsoleProcess, RedisProbe, startConsole, stopConsole } from './processes';

/**
 * Probes in several places with real processes: one worker in location `local` (PostgreSQL and Redis),
 * a probe `sgp-1` and a probe `fra-1` started with only REDIS_URL and PROBE_LOCATION, `fra-1` inside a network
 * namespace of its own whose way to the node is cut mid-test. Two blockCheck monitors every 5 s with `confirm: 2`:
 * one names its three locations, the other takes every live location. The cases share the processes and run in
 * order.
 */
const PG_BASE = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_BASE = process.env.REDIS_BASE_URL ?? 'redis://127.0.0.1:6379';
const REDIS_DB = process.env.REDIS_DB ?? 11;
const REDIS_URL = `${REDIS_BASE}/${REDIS_DB}`;

const dbName = `nm_probes_${randomBytes(6).toString('hex')}`;
let database: Database;
let redis: RedisProbe;
let sim: ChainSim;
let netns: Netns;
let worker: ConsoleProcess;
const probes: ConsoleProcess[] = [];
const probeDataDir = `/tmp/nm-probe-${dbName}`;
let named: number;
let all: number;

async function admin(query: string): Promise<void> {
    const c = new pg.Client({ connectionString: PG_BASE });
    await c.connect();
    await c.query(query);
    await c.end();
}

const row = async (id: number) => {
    const [m] = await database.db
        .select({ status: monitors.status, lastError: monitors.lastError })
        .from(monitors)
        .where(eq(monitors.id, id));
    const [s] = await database.db.select().from(monitorStates).where(eq(monitorStates.monitorId, id));
    return { ...m, locations: (s?.state as { locations?: LocationResult[] } | undefined)?.locations ?? [] };
};
const incidentsOf = (ids: number[]) =>
    database.db.select({ monitorId: incidents.monitorId }).from(incidents).where(inArray(incidents.monitorId, ids));

beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    const url = new URL(PG_BASE);
    url.pathname = `/${dbName}`;
    const databaseUrl = url.toString();
    database = await openDatabase({ databaseUrl, dataDir: '' });
    redis = new RedisProbe(REDIS_URL);
    await redis.flush();
    netns = await createNetns();
    // The node listens where the host and the namespace both reach it, until the namespace's route is cut.
    sim = await startChainSim({ blockTimeMs: 500, nodes: 1, host: netns.nodeIp });
    const [company] = await database.db
        .insert(companies)
        .values({ name: 'Probes', allowedNetworks: ['10.232.0.0/16'] })
        .returning();
    const [cfg] = await database.db
        .insert(configurations)
        .values({ companyId: company?.id ?? 0, name: 'Sim mainnet', chain: 'cosmoshub' })
        .returning();
    const [srv] = await database.db
        .insert(servers)
        .values({ configurationId: cfg?.id ?? 0, name: 'validator-1', address: `http://${netns.nodeIp}` })
        .returning();
    await database.db
        .insert(services)
        .values({ serverId: srv?.id ?? 0, name: 'rpc', type: 'rpc', address: sim.nodes[0]?.rpcUrl ?? '' });
    const monitor = (name: string, locations: string[] | null) => ({
        configurationId: cfg?.id ?? 0,
        serverId: srv?.id ?? 0,
        name,
        type: 'blockCheck' as const,
        configurationObject: JSON.stringify({
            miss_tolerance: 3,
            miss_tolerance_period_seconds: 30,
            sleep_duration_seconds: 5,
            alert_sleep_duration_minutes: 60,
        }),
        locations,
        confirm: 2,
    });
    const rows = await database.db
        .insert(monitors)
        .values([monitor('named', ['local', 'fra-1', 'sgp-1']), monitor('every', null)])
        .returning({ id: monitors.id });
    [named, all] = rows.map((r) => r.id) as [number, number];
    const redisPort = Number(new URL(REDIS_BASE).port || 6379);
    const fraRedis = `redis://${netns.hostIp}:${await netns.forward({ host: '127.0.0.1', port: redisPort })}/${REDIS_DB}`;
    // A probe is given the queue's address and its location, nothing else: no database, no secret.
    const probeEnv = { DATABASE_URL: '', APP_SECRET: '', DATA_DIR: probeDataDir };
    probes.push(await startConsole('probe', { ...probeEnv, REDIS_URL, PROBE_LOCATION: 'sgp-1' }));
    probes.push(
        await startConsole('probe', { ...probeEnv, REDIS_URL: fraRedis, PROBE_LOCATION: 'fra-1' }, 60_000, netns.name)
    );
    worker = await startConsole('worker', {
        DATABASE_URL: databaseUrl,
        REDIS_URL,
        APP_SECRET: randomBytes(32).toString('hex'),
        DATA_DIR: `/tmp/nm-cluster-${dbName}`,
    });
}, 180_000);

afterAll(async () => {
    await Promise.all([worker, ...probes].filter(Boolean).map((p) => stopConsole(p, 'SIGKILL')));
    await redis?.flush();
    await redis?.close();
    await database?.close();
    await sim?.close();
    await netns?.close();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
});

describe('probes in several places', () => {
    it('reads every monitor from the three locations, two of them probes without a database', async () => {
        for (const id of [named, all]) {
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
        // The probes wrote no key file: they hold no secret.
        expect(existsSync(`${probeDataDir}/secret.key`)).toBe(false);
    }, 60_000);

    it('warns, naming fra-1, when only fra-1 loses its way to the node, and opens no incident', async () => {
        netns.cutNode();
        for (const id of [named, all]) {
            const warned = await waitFor(
                `monitor ${id} warning about fra-1`,
                async () => {
                    const r = await row(id);
                    return r.lastError?.includes('down from fra-1, up from local, sgp-1') ? r : null;
                },
                60_000
            );
            expect(warned.status).toBe(true);
            expect(warned.locations.find((l) => l.location === 'fra-1')?.level).toBe('error');
        }
        // Several more checks while fra-1 stays cut: still no Error and no incident.
        await new Promise((r) => setTimeout(r, 12_000));
        for (const id of [named, all]) expect((await row(id)).status).toBe(true);
        expect(await incidentsOf([named, all])).toEqual([]);
    }, 120_000);

    it('names a probe that stopped answering, counts it toward nothing, and reads from it again once it is back', async () => {
        const sgp = probes[0] as ConsoleProcess;
        await stopConsole(sgp, 'SIGKILL');
        const silent = await waitFor(
            'no answer from sgp-1',
            async () => {
                const r = await row(named);
                return r.lastError?.includes('; no answer from sgp-1') ? r : null;
            },
            60_000
        );
        expect(silent.lastError).toContain('down from fra-1, up from local; no answer from sgp-1');
        expect(silent.status).toBe(true);
        expect(silent.locations.find((l) => l.location === 'sgp-1')).toMatchObject({ level: 'none', latency_ms: null });
        expect(await incidentsOf([named, all])).toEqual([]);
        probes[0] = await startConsole('probe', {
            DATABASE_URL: '',
            APP_SECRET: '',
            DATA_DIR: probeDataDir,
            REDIS_URL,
            PROBE_LOCATION: 'sgp-1',
        });
        await waitFor(
            'sgp-1 answering again',
            async () => (await row(named)).lastError?.includes('down from fra-1, up from local, sgp-1') ?? false,
            60_000
        );
    }, 150_000);

    it('confirms a halted node, seen down from every location, with exactly one incident per monitor', async () => {
        sim.control.halt(0);
        for (const id of [named, all]) {
            const failed = await waitFor(
                `monitor ${id} in Error`,
                async () => {
                    const r = await row(id);
                    return r.status === false ? r : null;
                },
                90_000
            );
            // fra-1, still cut, counts as one of the two until the loss of a probe's own network is told apart
            // (not built yet: a probe whose own network failed is not left out); the first healthy location to see the halt confirms it.
            expect(failed.lastError).toContain('down from ');
        }
        // Both healthy locations see it down too, and more checks of the halted node open no second incident.
        for (const id of [named, all])
            await waitFor(
                `monitor ${id} down from every location`,
                async () => {
                    const r = await row(id);
                    return r.locations.length === 3 && r.locations.every((l) => l.level === 'error');
                },
                60_000
            );
        await new Promise((r) => setTimeout(r, 12_000));
        const opened = await incidentsOf([named, all]);
        expect(opened.map((i) => i.monitorId).sort()).toEqual([named, all].sort());
    }, 150_000);
});
