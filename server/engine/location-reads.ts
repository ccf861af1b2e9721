import type { FastifyBaseLogger } from 'fastify';
import type { LocationRead } from './across-locations';
import type { Sighting } from './probe-health';
import { ProbeServer, RemoteLocations } from './probes';
import { failedRead, readRequest, readWithin, type TargetReadPorts, targetRead } from './read-target';
import type { MonitorTarget } from './targets';
import { errorText } from './texts';

/** Beside two intervals, time for a slot's readings to arrive: a sighting is not dropped between two checks. */
const SIGHTING_MARGIN_MS = 5000;

/**
 * A worker's part in the cluster's probe locations (probes.ts): it serves its own location's queue with
 * its read thread, and reads a monitor from every location the monitor names, this one here and the others
 * through their queues.
 */
export class LocationReads {
    private readonly remote: RemoteLocations;
    private readonly probe: ProbeServer;

    constructor(
        private readonly ports: TargetReadPorts,
        private readonly opts: { redisUrl: string; here: string },
        log: FastifyBaseLogger
    ) {
        const { redisUrl, here } = opts;
        this.remote = new RemoteLocations({ redisUrl, here, log });
        this.probe = new ProbeServer({ redisUrl, location: here, read: ports.reads.read, log });
    }

    async start(): Promise<void> {
        await this.probe.start();
        await this.remote.start();
    }

    async stop(): Promise<void> {
        await this.probe.stop();
        await this.remote.stop();
    }

    /** The locations whose probes lost their own network: read, shown, and counted neither way. */
    get cut(): ReadonlySet<string> {
        return this.remote.cut;
    }

    /** Notes one weighing's sightings (probe-health.ts) for the probes' watch; they count for an interval or two. */
    record(target: MonitorTarget, sightings: { location: string; sighting: Sighting }[], intervalMs: number): void {
        const monitor = { id: target.id, companyId: target.configuration.companyId };
        void this.remote.record(monitor, sightings, 2 * intervalMs + SIGHTING_MARGIN_MS);
    }

    /**
     * The locations to read a monitor from, this one first (its memory is preferred), or null for today's one read
     * here: the monitor's only location is this one (every live location when it names none).
     */
    plan(target: MonitorTarget): string[] | null {
        const { here } = this.opts;
        const wanted = target.locations ?? this.remote.all;
        if (wanted.length === 1 && wanted[0] === here) return null;
        return [...wanted].sort((a, b) => Number(b === here) - Number(a === here));
    }

    /** One slot's readings from every location of the plan: this one's read here, the others' through their queues. */
    async readAcross(plan: string[], target: MonitorTarget, timeoutMs: number): Promise<LocationRead[]> {
        let req: Awaited<ReturnType<typeof readRequest>>;
        try {
            req = await readRequest(this.ports, target);
        } catch (err) {
            const read = failedRead(errorText(err));
            return plan.map((location) => ({ location, read, ms: null }));
        }
        return Promise.all(
            plan.map(async (location): Promise<LocationRead> => {
                if (location !== this.opts.here) {
                    const answer = await this.remote.ask(location, req, timeoutMs);
                    if (!answer) return { location, read: null, ms: null };
                    const read = answer.ok ? targetRead(target, answer.value) : failedRead(answer.error);
                    return { location, read, ms: answer.ms };
                }
                const started = performance.now();
                try {
                    const value = await readWithin(this.ports.reads.read, req, timeoutMs, this.ports.stopping);
                    return { location, read: targetRead(target, value), ms: performance.now() - started };
                } catch (err) {
                    return { location, read: failedRead(errorText(err)), ms: performance.now() - started };
                }
            })
        );
    }
}
