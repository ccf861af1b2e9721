import { spawnSync } from 'node:child_process';
import { and, eq, inArray, sql } from 'drizzle-orm';
import WebSocket from 'ws';
import { incidents, monitorStates, monitors, outbox } from '../../server/db/schema';
import { waitFor } from '../server/seed';
import { type ClusterEnv, clusterEnv } from './cluster-env';
import { type ConsoleProcess, REDIS_URL, stopConsole } from './processes';
import { blockCheck, blockCheckSettings, rpcService, seedServer, seedTelegramChannel, seedTenant } from './seed';

/**
 * The cluster profile with real processes: one `web` and three `worker` consoles on one PostgreSQL database and one
 * Redis database of this file's own, checking blockCheck monitors every 5 s against the chain simulator. The cases
 * share the processes and run in order.
 */
const ROOT = new URL('../..', import.meta.url).pathname;

let cluster: ClusterEnv;
let configurationId: number;
let companyId: number;
let web: ConsoleProcess;
let web2: ConsoleProcess;
const workers: ConsoleProcess[] = [];
const monitorIds: number[] = [];
let disabledIds: number[] = [];

const health = async () => {
    const res = await fetch(`${web.url}/api/health`);
    return { status: res.status, body: (await res.json()) as { workers?: { pid: number }[]; message?: string } };
};

/** Monitor id → interval in ms, as the database says the schedulers should be. */
async function wantedSchedulers(): Promise<Map<string, number>> {
    const rows = await cluster.db
        .select({ id: monitors.id, settings: monitors.configurationObject })
        .from(monitors)
        .where(eq(monitors.isEnabled, true));
    return new Map(
        rows.map((r) => [
            String(r.id),
            (JSON.parse(r.settings) as { sleep_duration_seconds: number }).sleep_duration_seconds * 1000,
        ])
    );
}

const sameSchedulers = async () => {
    const [want, have] = [await wantedSchedulers(), await cluster.redis.schedulers()];
    return want.size === have.size && [...want].every(([id, every]) => have.get(id) === every);
};

const lastChecks = async (ids: number[]) =>
    cluster.db
        .select({ id: monitors.id, lastCheck: monitors.lastCheck })
        .from(monitors)
        .where(inArray(monitors.id, ids));

beforeAll(async () => {
    cluster = await clusterEnv({ name: 'cluster', sim: { blockTimeMs: 500, nodes: 1 } });
    ({ companyId, configurationId } = await seedTenant(cluster, 'Cluster'));
    const serverId = await seedServer(cluster, configurationId, rpcService(cluster.sim.nodes[0]?.rpcUrl));
    const rows = await cluster.db
        .insert(monitors)
        .values(
            Array.from({ length: 12 }, (_, i) => ({
                ...blockCheck(
                    { configurationId, serverId },
                    `height-${String(i + 1).padStart(2, '0')}`,
                    blockCheckSettings(5)
                ),
                isEnabled: i < 10,
            }))
        )
        .returning({ id: monitors.id, isEnabled: monitors.isEnabled });
    monitorIds.push(...rows.filter((r) => r.isEnabled).map((r) => r.id));
    disabledIds = rows.filter((r) => !r.isEnabled).map((r) => r.id);
    web = await cluster.start('web');
    web2 = await cluster.start('web');
    workers.push(...(await Promise.all([1, 2, 3].map(() => cluster.start('worker')))));
}, 180_000);

afterAll(() => cluster?.stop());

describe('the cluster profile', () => {
    it('stops a start with REDIS_URL but no DATABASE_URL, naming both', () => {
        const run = spawnSync(`${ROOT}node_modules/.bin/tsx`, ['server/main.ts', 'start'], {
            cwd: ROOT,
            env: { ...process.env, REDIS_URL, DATABASE_URL: '', DATA_DIR: cluster.env.DATA_DIR ?? '' },
            encoding: 'utf8',
        });
        expect(run.status).toBe(1);
        expect(run.stderr).toMatch(/REDIS_URL needs DATABASE_URL/);
    });

    it('lists the three live workers on /api/health of the web process', async () => {
        const { status, body } = await waitFor('three workers', async () => {
            const h = await health();
            return h.body.workers?.length === 3 ? h : null;
        });
        expect(status).toBe(200);
        expect(body.workers?.map((w) => w.pid).sort()).toEqual(workers.map((w) => w.child.pid).sort());
    });

    it('keeps exactly one job scheduler per enabled monitor, with its interval', async () => {
        await waitFor('the schedulers', sameSchedulers);
        const have = await cluster.redis.schedulers();
        expect([...have.keys()].sort()).toEqual(monitorIds.map(String).sort());
        for (const id of disabledIds) expect(have.has(String(id))).toBe(false);
    });

    it("spreads the monitors' runs over their interval, as one process does, instead of running all at once", async () => {
        // The ten monitors run every 5 s: the longest stretch of the interval in which none of them runs (around the
        // circle of the interval) is short when they are spread, and nearly all of it when they run together.
        const phases = (await cluster.redis.phases()).sort((a, b) => a - b);
        expect(phases).toHaveLength(monitorIds.length);
        const gaps = phases.map((p, i) => (i === 0 ? p + 5000 - (phases.at(-1) ?? 0) : p - (phases[i - 1] ?? 0)));
        expect(Math.max(...gaps)).toBeLessThan(3500);
    });

    it('saves each check under the slot it was due at: the one before the next run its scheduler queued', async () => {
        // BullMQ queues a monitor's next run when the current one starts, so once a check is saved its slot is one
        // interval before the scheduler's next run (two intervals would be the slot before: a check saved as late).
        const settled = async () => {
            const runs = await cluster.redis.nextRuns();
            const states = await cluster.db
                .select({ id: monitorStates.monitorId, slot: sql<string>`${monitorStates.state}->>'slot'` })
                .from(monitorStates)
                .where(inArray(monitorStates.monitorId, monitorIds));
            return (
                states.length === monitorIds.length &&
                states.every((s) => {
                    const run = runs.get(String(s.id));
                    return run !== undefined && run.next - Number(s.slot) === run.every;
                })
            );
        };
        await waitFor('every saved slot one interval before its next run', settled, 20_000);
    });

    it('checks every monitor within 20 s of a worker killed with -9, and drops it from the list within 30 s', async () => {
        await waitFor('a first check of every monitor', async () =>
            (await lastChecks(monitorIds)).every((r) => r.lastCheck !== null)
        );
        const victim = workers[0] as ConsoleProcess;
        const killedAt = new Date();
        await stopConsole(victim, 'SIGKILL');
        await waitFor(
            'a check of every monitor after the kill',
            async () => (await lastChecks(monitorIds)).every((r) => r.lastCheck && new Date(r.lastCheck) > killedAt),
            20_000
        );
        await waitFor(
            'the killed worker to leave /api/health',
            async () => {
                const { body } = await health();
                return body.workers?.length === 2 && !body.workers.some((w) => w.pid === victim.child.pid);
            },
            30_000
        );
    }, 60_000);

    it('adds no scheduler when a worker restarts', async () => {
        workers[0] = await cluster.start('worker');
        await waitFor('three workers again', async () => (await health()).body.workers?.length === 3);
        expect(await cluster.redis.count()).toBe(monitorIds.length);
        expect(await sameSchedulers()).toBe(true);
    }, 90_000);

    it('sends exactly one ALERT and opens one incident per monitor failing just before a worker is killed', async () => {
        const channelId = await seedTelegramChannel(cluster, {
            companyId,
            configurationIds: [configurationId],
            token: '123456:CLUSTER-token',
            chat: '-4242',
        });
        await cluster.redis.emit({ name: 'NOTIFICATION_CHANNEL_CREATED', channelId });
        // The node reports catching_up: every blockCheck is in Error at its next check (within 5 s).
        cluster.sim.control.catchUp(0);
        await new Promise((r) => setTimeout(r, 3000));
        await stopConsole(workers[1] as ConsoleProcess, 'SIGKILL');
        // One alert row per monitor, delivered once: a backlog of a channel goes out as a digest of one line per
        // monitor, so the wire is counted by monitor name.
        const alertRows = () =>
            cluster.db
                .select({ monitorId: outbox.monitorId, status: outbox.status })
                .from(outbox)
                .where(and(eq(outbox.kind, 'alert'), inArray(outbox.monitorId, monitorIds)));
        await waitFor(
            'an alert per monitor, delivered',
            async () => {
                const rows = await alertRows();
                return rows.length >= monitorIds.length && rows.every((r) => r.status === 'sent');
            },
            40_000
        );
        // Several more checks of every monitor, by the two workers left: no second alert, no second incident.
        await new Promise((r) => setTimeout(r, 12_000));
        expect((await alertRows()).map((r) => r.monitorId).sort()).toEqual([...monitorIds].sort());
        for (const i of monitorIds.keys()) {
            const name = `height-${String(i + 1).padStart(2, '0')}`;
            expect(cluster.telegram.sent.filter((m) => m.text.includes(name))).toHaveLength(1);
        }
        const open = await cluster.db
            .select({ monitorId: incidents.monitorId })
            .from(incidents)
            .where(inArray(incidents.monitorId, monitorIds));
        expect(open.map((i) => i.monitorId).sort()).toEqual([...monitorIds].sort());
        cluster.sim.control.clearCatchUp(0);
        workers[1] = await cluster.start('worker');
    }, 120_000);

    it("shows the workers' log lines in the log tail, on a ticket another web process issued", async () => {
        const login = await fetch(`${web.url}/api/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: 'admin', password: cluster.env.ADMIN_PASSWORD }),
        });
        const { accessToken } = (await login.json()) as { accessToken: { token: string } };
        const issued = await fetch(`${web.url}/api/logs/ticket`, {
            method: 'POST',
            headers: { authorization: `Bearer ${accessToken.token}` },
        });
        const { ticket } = (await issued.json()) as { ticket: string };
        const socket = new WebSocket(`${web2.url?.replace('http', 'ws')}/api/logs?ticket=${ticket}`, {
            headers: { origin: web2.url ?? '' },
        });
        const lines: string[] = [];
        socket.on('message', (data) => lines.push((JSON.parse(data.toString()) as { message: string }).message));
        try {
            // Only workers run checks: a monitor's state change in the web's tail came from one of them.
            await waitFor('a worker line', () => lines.some((l) => /height-\d\d \(blockCheck\)/.test(l)), 20_000);
        } finally {
            socket.close();
        }
        // Used once, on the other process: this one refuses it too.
        const again = new WebSocket(`${web.url?.replace('http', 'ws')}/api/logs?ticket=${ticket}`, {
            headers: { origin: web.url ?? '' },
        });
        const refused = await new Promise<number>((resolve) => {
            again.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
            again.on('open', () => resolve(101));
        });
        expect(refused).toBe(401);
    });

    it('answers on the other web process when one is killed with -9: its sessions go on there, and the log tail too', async () => {
        const post = (base: string | null, path: string, bearer?: string, body?: object) =>
            fetch(`${base}${path}`, {
                method: 'POST',
                headers: {
                    ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
                    ...(body ? { 'content-type': 'application/json' } : {}),
                },
                body: body ? JSON.stringify(body) : undefined,
            });
        type Session = { accessToken: { token: string }; refreshToken: { token: string } };
        // Signed in on the process about to die; the log tail watched on the one that lives, on a ticket of the other.
        const signedIn = await post(web2.url, '/api/login', undefined, {
            username: 'admin',
            password: cluster.env.ADMIN_PASSWORD,
        });
        expect(signedIn.status).toBe(200);
        const session = (await signedIn.json()) as Session;
        const issued = await post(web2.url, '/api/logs/ticket', session.accessToken.token);
        const { ticket } = (await issued.json()) as { ticket: string };
        const socket = new WebSocket(`${web.url?.replace('http', 'ws')}/api/logs?ticket=${ticket}`, {
            headers: { origin: web.url ?? '' },
        });
        const lines: string[] = [];
        socket.on('message', (data) => lines.push((JSON.parse(data.toString()) as { message: string }).message));
        try {
            await new Promise((resolve, reject) => {
                socket.once('open', resolve);
                socket.once('error', reject);
            });
            await stopConsole(web2, 'SIGKILL');
            const seenBeforeKill = lines.length;

            const { status } = await health();
            expect(status).toBe(200);
            // The access token the dead process issued is taken here.
            const me = await fetch(`${web.url}/api/users/me`, {
                headers: { authorization: `Bearer ${session.accessToken.token}` },
            });
            expect(me.status).toBe(200);
            // Its refresh token rotates here; the one it replaced is refused from then on (reuse ends the family).
            const refreshed = await post(web.url, '/api/refresh', session.refreshToken.token);
            expect(refreshed.status).toBe(200);
            const next = (await refreshed.json()) as Session;
            expect(next.refreshToken.token).not.toBe(session.refreshToken.token);

            // Workers' lines keep reaching the survivor's tail: a state change of every monitor, made by a worker.
            cluster.sim.control.catchUp(0);
            await waitFor(
                "a worker's line on the surviving web after the kill",
                () => lines.slice(seenBeforeKill).some((l) => /height-\d\d \(blockCheck\)/.test(l)),
                20_000
            );
            expect(socket.readyState).toBe(WebSocket.OPEN);

            // Signed out here: the rotated refresh token is refused after it, and the session's log tail ends.
            expect((await post(web.url, '/api/logout', next.refreshToken.token)).status).toBe(204);
            expect((await post(web.url, '/api/refresh', next.refreshToken.token)).status).toBe(401);
            await waitFor('the log tail of the ended session to close', () => socket.readyState === WebSocket.CLOSED);
        } finally {
            socket.close();
            cluster.sim.control.clearCatchUp(0);
        }
    }, 60_000);

    it('after 1,000 edits while the workers run, holds exactly one scheduler per enabled monitor', async () => {
        const all = [...monitorIds, ...disabledIds];
        for (let i = 0; i < 1000; i++) {
            const id = all[i % all.length] as number;
            const sleep = 5 + (i % 4);
            await cluster.db
                .update(monitors)
                .set({
                    isEnabled: i % 7 !== 3,
                    configurationObject: blockCheckSettings(sleep),
                })
                .where(eq(monitors.id, id));
            await cluster.redis.emit({ name: 'MONITOR_UPDATED', monitorId: id });
        }
        await waitFor('the schedulers to follow the edits', sameSchedulers, 60_000);
        expect(await cluster.redis.count()).toBe((await wantedSchedulers()).size);
    }, 120_000);

    it('answers the truth with no worker alive', async () => {
        await Promise.all(workers.map((w) => stopConsole(w, 'SIGKILL')));
        const { status, body } = await waitFor(
            'an empty worker list',
            async () => {
                const h = await health();
                return h.body.workers?.length === 0 ? h : null;
            },
            30_000
        );
        expect(status).toBe(503);
        expect(body.message).toBe('No worker process is alive: no check runs and no notification is sent');
    }, 60_000);
});
