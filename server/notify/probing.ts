import type { FastifyBaseLogger } from 'fastify';
import { redact } from '../clients/http';

/**
 * While a destination does not answer, one cheap probe goes to it this often instead of the backlog's backoff: the
 * first message then goes out within seconds of it answering again, however long the outage was.
 */
export const PROBE_INTERVAL_MS = 2000;

/** A destination that did not answer: its channels wait for a probe to get an answer, not for their backoff. */
interface Down {
    channels: Set<number>;
    nextProbeAt: number;
    probing: boolean;
    probe: () => Promise<boolean>;
}

/** The destinations that did not answer, by `destination` key, each probed every PROBE_INTERVAL_MS. */
export class DownDestinations {
    private readonly down = new Map<string, Down>();

    constructor(
        private readonly now: () => number,
        private readonly log: FastifyBaseLogger,
        private readonly stopped: () => boolean,
        /** Makes the backlog of a destination's channels due at once, when its probe got an answer. */
        private readonly answered: (channelIds: number[]) => Promise<void>
    ) {}

    /** Whether the channel's messages wait for its destination's probe; if so it is sent with the backlog. */
    holds(destination: string | null, channelId: number): boolean {
        const down = destination ? this.down.get(destination) : undefined;
        down?.channels.add(channelId);
        return down !== undefined;
    }

    /** Notes that `destination` did not answer the channel: from now on it is probed. */
    markDown(destination: string, channelId: number, probe: () => Promise<boolean>): void {
        const entry = this.down.get(destination) ?? {
            channels: new Set<number>(),
            nextProbeAt: this.now() + PROBE_INTERVAL_MS,
            probing: false,
            probe,
        };
        entry.channels.add(channelId);
        this.down.set(destination, entry);
    }

    /** Starts the probes that are due; one that gets an answer makes the destination's backlog due at once. */
    probeDue(): void {
        const now = this.now();
        for (const [key, d] of this.down) {
            if (d.probing || d.nextProbeAt > now || this.stopped()) continue;
            d.probing = true;
            d.nextProbeAt = now + PROBE_INTERVAL_MS;
            void d
                .probe()
                .catch(() => false)
                .then(async (up) => {
                    d.probing = false;
                    if (!up || this.stopped()) return;
                    this.down.delete(key);
                    this.log.info(`Notification destination ${redact(key)} answers again: sending its backlog`);
                    await this.answered([...d.channels]);
                })
                .catch((err) => this.log.error({ err }, 'Notification destination probe failed'));
        }
    }
}
