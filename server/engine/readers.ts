import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { EgressPolicy } from '../clients/address-guard';
import { type HttpClient, withPolicy } from '../clients/http';
import { MONITOR_CATALOGUE } from '../../common/monitor-types';
import { type ChainSource, chooseSource, type SourceSeen, type SourceUsed } from './chain-sources';
import type { CheckContext } from './check';
import { CHECKS } from './checks';
import { errorText } from './texts';

/** What one read needs, as plain data: it may cross to the read thread. */
export interface ReadRequest {
    monitor: CheckContext['monitor'];
    server: CheckContext['server'];
    services: CheckContext['services'];
    chain: CheckContext['chain'];
    /** The monitor's company's allowed networks: every request of the read is made within them. */
    policy: EgressPolicy;
    /** A validator-duty monitor's ways into its chain (chain-sources.ts); it reads through a fresh one. */
    sources?: ChainSource[];
}

/** A duty check's measurement with the source it was read through. */
export interface SourcedReading {
    sourced: SourceUsed;
    /** Every source of the chain as this check saw it (the Prometheus page). */
    seen: SourceSeen[];
    value: unknown;
}

/** Reads a node for one check: the measurement, or a rejection whose message is the check's own sentence. */
export type Reader = (req: ReadRequest, signal: AbortSignal) => Promise<unknown>;

/** The check's read on this thread, through the one egress client. */
export const readHere =
    (http: HttpClient): Reader =>
    async ({ policy, sources, ...rest }, signal) => {
        const check = CHECKS[rest.monitor.type];
        const client = withPolicy(http, policy);
        if (!sources?.length || MONITOR_CATALOGUE[rest.monitor.type].role !== 'duty')
            return check.read({ ...rest, http: client, signal });
        const scope = policy.allowedNetworks.join(',');
        const chosen = await chooseSource(sources, rest.server?.id ?? null, client, scope);
        const value = await check.read({ ...rest, services: chosen.services, http: client, signal });
        return { sourced: chosen.used, seen: chosen.seen, value } satisfies SourcedReading;
    };

export type ToReadThread =
    | { id: number; req: ReadRequest }
    /** The read's signal fired; the thread aborts it with the same reason, so the check words the failure itself. */
    | { cancel: number; reason: string }
    /** Asked after a cancelled read went unanswered: a thread that answers nothing at all is stuck. */
    | { ping: true };
export type ReadAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };
/** `ready` is sent once, when the thread has loaded the checks. */
export type FromReadThread = ReadAnswer | { ready: true } | { pong: true };

const RESTART_DELAY_MS = 1000;
/** How long a cancelled read may take to end, and then the thread to answer a ping, before each is given up. */
const GRACE_MS = 5000;

interface Pending {
    resolve: (value: unknown) => void;
    reject: (err: Error) => void;
}

/**
 * Runs the checks' reads on a thread of their own. At 20,000 monitors the reads (connecting, parsing blocks and
 * metrics) took a third of the process's CPU and came in bursts, and every API request waited behind them: the
 * console's first page of configurations had a p99 of 300 ms while served from the answer cache in 1 ms.
 * The thread builds its own client through the same egress module with the same settings; judging, alert state and
 * the database stay here. If the thread dies, reads in flight fail (a read failure, which the checks already
 * tolerate) and a read a second later starts a new thread. A cancelled read the thread does not end within a grace
 * fails here (a check that ignores its signal must not wait for ever), and a thread that then does not answer a
 * ping either (stuck in a loop) is ended, which starts that same restart.
 */
export class ReadThread {
    private worker: Worker | null = null;
    private nextId = 1;
    private readonly pending = new Map<number, Pending>();
    /**
     * After the thread stopped, why reads fail until a new one may start (a thread that cannot load must not respawn
     * per check); for good once the engine closed it.
     */
    private stopped: { message: string; until: number } | null = null;
    /** Messages heard from the thread; a ping is answered when this moves. */
    private heard = 0;
    private pinging = false;

    constructor(
        private readonly options: { allowPrivate: boolean },
        private readonly log: FastifyBaseLogger,
        /** Tests run a thread that hangs (`entry`) and shorten the grace. */
        private readonly tuning: { entry?: URL; graceMs?: number } = {}
    ) {}

    read: Reader = (req, signal) =>
        new Promise((resolve, reject) => {
            const refused = this.refusal();
            if (refused) {
                reject(new Error(refused));
                return;
            }
            const worker = this.start();
            const id = this.nextId++;
            let grace: NodeJS.Timeout | undefined;
            const onAbort = () => {
                const reason = errorText(signal.reason);
                worker.postMessage({ cancel: id, reason } satisfies ToReadThread);
                grace = setTimeout(() => {
                    entry.reject(new Error(reason));
                    this.ping(worker);
                }, this.graceMs).unref();
            };
            const settle = () => {
                clearTimeout(grace);
                signal.removeEventListener('abort', onAbort);
                this.pending.delete(id);
            };
            const entry: Pending = {
                resolve: (v) => {
                    settle();
                    resolve(v);
                },
                reject: (e) => {
                    settle();
                    reject(e);
                },
            };
            this.pending.set(id, entry);
            try {
                worker.postMessage({ id, req } satisfies ToReadThread);
            } catch (err) {
                entry.reject(new Error(`The check could not be passed to its read thread: ${errorText(err)}`));
                return;
            }
            if (signal.aborted) onAbort();
            else signal.addEventListener('abort', onAbort, { once: true });
        });

    /**
     * Starts the thread and waits until it has loaded the checks (about half a second from TypeScript sources), so
     * the engine's first checks do not wait for it. Never throws: a thread that cannot load fails the reads instead.
     */
    warm(): Promise<void> {
        if (this.refusal()) return Promise.resolve();
        let worker: Worker;
        try {
            worker = this.start();
        } catch (err) {
            this.log.error({ err }, 'The checks’ read thread could not start');
            return Promise.resolve();
        }
        return new Promise((resolve) => {
            const done = () => {
                worker.off('message', onMessage);
                worker.off('exit', done);
                resolve();
            };
            const onMessage = (msg: FromReadThread) => {
                if ('ready' in msg) done();
            };
            worker.on('message', onMessage);
            worker.on('exit', done);
        });
    }

    async close(): Promise<void> {
        this.stopped = { message: 'The engine is stopping', until: Number.POSITIVE_INFINITY };
        const worker = this.worker;
        this.worker = null;
        await worker?.terminate();
        this.failAll('The engine is stopping');
    }

    private start(): Worker {
        if (this.worker) return this.worker;
        const entry = this.tuning.entry ?? new URL('./read-thread-entry.mjs', import.meta.url);
        const worker = new Worker(entry, { workerData: this.options });
        worker.on('message', (msg: FromReadThread) => {
            this.heard++;
            if (!('id' in msg)) return;
            const p = this.pending.get(msg.id);
            if (!p) return;
            if (msg.ok) p.resolve(msg.value);
            else p.reject(new Error(msg.error));
        });
        worker.on('error', (err) => this.log.error({ err }, 'The checks’ read thread failed'));
        worker.on('exit', (code) => {
            if (this.worker !== worker) return;
            this.worker = null;
            this.log.error(`The checks’ read thread stopped (exit code ${code}); a new one starts within a second`);
            const message = `The check could not run: its read thread stopped (exit code ${code})`;
            this.stopped = { message, until: performance.now() + RESTART_DELAY_MS };
            this.failAll(message);
        });
        // The engine's timers keep the process alive; a thread left idle must not. After the listeners: adding the
        // first 'message' listener refs the thread again.
        worker.unref();
        this.worker = worker;
        return worker;
    }

    /** Why reads fail right now, if they do. */
    private refusal(): string | null {
        return this.stopped && performance.now() < this.stopped.until ? this.stopped.message : null;
    }

    private get graceMs(): number {
        return this.tuning.graceMs ?? GRACE_MS;
    }

    /** A cancelled read went unanswered: if the thread answers nothing at all within the grace, it is stuck. */
    private ping(worker: Worker): void {
        if (this.worker !== worker || this.pinging) return;
        this.pinging = true;
        const heard = this.heard;
        worker.postMessage({ ping: true } satisfies ToReadThread);
        setTimeout(() => {
            this.pinging = false;
            if (this.worker !== worker || this.heard !== heard) return;
            this.log.error('The checks’ read thread stopped answering; it is ended');
            void worker.terminate();
        }, this.graceMs).unref();
    }

    private failAll(message: string): void {
        for (const p of [...this.pending.values()]) p.reject(new Error(message));
    }
}
