import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { companies, monitors } from '../../../server/db/schema';
import { CompanySlots } from '../../../server/engine/company-slots';
import { seedCompany } from '../helpers';
import { seedNode, waitFor } from '../seed';
import { type ClusterApps, clusterApps } from './apps';

/**
 * A company's `max_concurrent_checks` in the cluster profile: two workers take its checks from BullMQ, and between
 * them never run more than its cap at once. Its six monitors read a node that never answers (each read holds on
 * until its 5 s timeout), so every check is in flight as long as it can be; the node counts the reads open at once.
 * A company whose monitors could never have its cap in flight takes no slot in Redis for its checks.
 */
const CAP = 2;
let c: ClusterApps;
let hanging: Server;
let open = 0;
let mostOpen = 0;
let reads = 0;
let fewId = 0;
let fewMonitor = 0;
const acquired = new Map<number, number>();

function app(i: number) {
    const t = c.apps[i];
    if (!t) throw new Error(`no app ${i}`);
    return t.app;
}

beforeAll(async () => {
    hanging = createServer((req, res) => {
        reads++;
        mostOpen = Math.max(mostOpen, ++open);
        req.socket.on('close', () => open--);
        // Never answered: the check gives up at its timeout and closes the connection.
        void res;
    });
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    const acquire = CompanySlots.prototype.acquire;
    vi.spyOn(CompanySlots.prototype, 'acquire').mockImplementation(function (this: CompanySlots, id, cap, holder) {
        acquired.set(id, (acquired.get(id) ?? 0) + 1);
        return acquire.call(this, id, cap, holder);
    });
    c = await clusterApps(2, 15, { role: 'worker', engineEnabled: true });
    const db = app(0).ctx.db;
    const companyId = await seedCompany(app(0), 'Hanging targets');
    await db.update(companies).set({ maxConcurrentChecks: CAP }).where(eq(companies.id, companyId));
    for (let i = 0; i < 6; i++) {
        const { monitorId } = await seedNode(app(0), {
            companyId,
            services: [{ type: 'node_exporter', address: url }],
            // Not a blockCheck: the checks judged across monitors run in one worker only (the duties' lock holder).
            monitor: {
                type: 'nodeExporterDiskSpace',
                name: `hanging ${i}`,
                settings: { threshold: 99, check_interval_seconds: 5 },
            },
        });
        app(0).ctx.events.emit({ name: 'MONITOR_CREATED', monitorId });
    }
    // One monitor every 5 s under the default cap of 64: at most a few of its checks are ever in flight.
    fewId = await seedCompany(app(0), 'Few monitors');
    const { monitorId } = await seedNode(app(0), {
        companyId: fewId,
        // Refused at once, and not counted by the hanging node.
        services: [{ type: 'node_exporter', address: 'http://127.0.0.1:9' }],
        monitor: { type: 'nodeExporterDiskSpace', name: 'few', settings: { threshold: 99, check_interval_seconds: 5 } },
    });
    app(0).ctx.events.emit({ name: 'MONITOR_CREATED', monitorId });
    fewMonitor = monitorId;
});
afterAll(async () => {
    await c?.close();
    hanging?.closeAllConnections();
    await new Promise((r) => hanging?.close(r));
});

it("two workers together run no more of a company's checks at once than its cap", { timeout: 90_000 }, async () => {
    // Enough reads for every monitor to have been due several times over.
    await waitFor('12 reads of the hanging node', () => reads >= 12, 75_000);
    expect(mostOpen).toBeLessThanOrEqual(CAP);
    // Six hanging monitors want more than the cap at once: the cap, not a lack of work, held them to it. (Which of the
    // two workers takes each check is BullMQ's choice, so the test does not ask that both took some.)
    expect(mostOpen).toBe(CAP);
    await waitFor('a check of the other company', async () => {
        const [row] = await app(0).ctx.db.select().from(monitors).where(eq(monitors.id, fewMonitor));
        return row?.lastCheck ?? null;
    });
    expect(acquired.get(fewId) ?? 0).toBe(0);
    expect(acquired.size).toBe(1);
});
