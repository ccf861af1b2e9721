import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';
import { SessionLock } from '../db/session-lock';
import { CompanySlots } from '../engine/company-slots';
import { Engine } from '../engine/engine';
import { ProbeWatch } from '../engine/probe-watch';
import { QueueScheduler } from '../engine/queue-scheduler';
import { Watchdog } from '../engine/watchdog';
import { HistoryPacker } from '../history/packer';
import { HistoryPruner } from '../history/pruner';
import { IncidentSweeper } from '../incidents/sweeper';
import { telegramActions } from '../incidents/telegram-actions';
import { OutboxDispatcher } from '../notify/outbox';
import { TelegramPollers } from '../notify/telegram/poller';

/** The advisory lock's number (pg_try_advisory_lock): "NMSI" in ASCII, used for nothing else on the database. */
const SINGLETONS_LOCK = 0x4e4d5349;

/**
 * The composition root of the parts that run beside the API: the engine, the outbox, the Telegram pollers, the
 * incident sweeper, the history pruner and the watchdog. Each is handed only the ports it takes (the store it
 * writes, the clock, the events it follows), never the whole app context, so none of them depends on the others
 * or on the HTTP side. In the cluster profile every worker checks and delivers, and one of them at a time runs
 * the rest (start() says why).
 */
export class BackgroundParts {
    /** Asked by /api/health in every process; sends the heartbeat where the cluster-wide duties run. */
    readonly watchdog: Watchdog;
    private engine: Engine | null = null;
    private outbox: OutboxDispatcher | null = null;
    private pollers: TelegramPollers | null = null;
    private readonly sweeper: IncidentSweeper;
    private readonly pruner: HistoryPruner;
    private readonly packer: HistoryPacker;
    /** The cluster profile's lock on the parts that run in one process only. */
    private singletons: SessionLock | null = null;
    /** The cluster profile's schedule, whose checks judged across monitors run where the singletons run. */
    private queue: QueueScheduler | null = null;
    /** The cluster profile's watch of the probe locations' own networks and liveness. */
    private probes: ProbeWatch | null = null;

    constructor(
        private readonly ctx: AppContext,
        private readonly log: FastifyBaseLogger
    ) {
        const { db, dbHealth, config } = ctx;
        this.watchdog = new Watchdog({ db, dbHealth, http: ctx.http, config, engine: () => this.engine }, log);
        this.sweeper = new IncidentSweeper({ db, dbHealth, silences: ctx.silences, config }, log);
        this.pruner = new HistoryPruner(db, config.history, log, dbHealth);
        this.packer = new HistoryPacker(db, config.history, log, dbHealth);
    }

    /** Starts checking, delivering and sweeping; the engine is on `ctx.engine` for the API's live figures. */
    async start(): Promise<void> {
        const { ctx, log } = this;
        const { db, dbHealth, events, egress, http, config, keys } = ctx;
        // The cluster profile (REDIS_URL; config.ts insists on DATABASE_URL beside it): this process is one of several.
        const cluster =
            config.redisUrl && config.databaseUrl
                ? { redisUrl: config.redisUrl, databaseUrl: config.databaseUrl }
                : null;
        // Each company's checks in flight, held to its cap across the cluster's workers.
        const slots = cluster && ctx.sharedState.redis ? new CompanySlots(ctx.sharedState.redis) : null;
        this.engine = new Engine(
            {
                db,
                dbHealth,
                events,
                silences: ctx.silences,
                egress,
                chains: ctx.chains,
                keys: { secretsAtRest: keys.secretsAtRest },
                config,
            },
            log,
            {
                // Checks are scheduled on BullMQ and run by whichever worker takes them.
                schedule:
                    cluster && slots
                        ? (run, concurrency) => {
                              this.queue = new QueueScheduler(run, concurrency, {
                                  redisUrl: cluster.redisUrl,
                                  log,
                                  slots,
                              });
                              return this.queue;
                          }
                        : undefined,
                sharedState: cluster !== null,
                locations: cluster ? { redisUrl: cluster.redisUrl, here: config.probeLocation } : undefined,
                observations: ctx.sharedState.observations ?? undefined,
            }
        );
        ctx.engine = this.engine;
        await this.engine.start();
        const senders = { http, config, egress, keys: { secretsAtRest: keys.secretsAtRest } };
        this.outbox = new OutboxDispatcher(
            { ...senders, db, dbHealth, events, shared: cluster !== null, sendLog: ctx.sharedState.sendLog },
            log
        );
        this.outbox.start();
        // Telegram button presses acknowledge incidents and silence monitors from the chat.
        this.pollers = new TelegramPollers({ ...senders, db, events }, log, {
            actions: telegramActions({ db, events, silences: ctx.silences }),
        });
        this.watchdog.start();
        if (cluster && ctx.sharedState.redis) this.probes = new ProbeWatch({ db, redis: ctx.sharedState.redis }, log);
        if (!cluster) {
            await this.startSingletons();
            return;
        }
        // The parts below would each run once per worker: three workers would send three heartbeats and three
        // notices of a failing channel, poll one bot three times (Telegram ends all but the newest getUpdates with
        // 409) and sweep and prune three times. They run in the one process that holds a PostgreSQL advisory lock:
        // the database releases it when the holder's connection ends, a process killed with -9 included, and another
        // takes it within seconds. A BullMQ job scheduler would do for the periodic parts but not for the pollers,
        // which hold a long request open all the time; one lock for all keeps them in one place. The checks judged
        // across monitors (chain halts, upgrade holds, duty groups) run there too, on their own queue, so the facts
        // they share are in one memory as in one process (queue-scheduler.ts).
        this.singletons = new SessionLock(
            {
                databaseUrl: cluster.databaseUrl,
                key: SINGLETONS_LOCK,
                name: 'the cluster-wide duties',
                onAcquired: () => this.startSingletons(),
                onLost: () => this.stopSingletons(),
            },
            log
        );
        this.singletons.start();
    }

    /** Stops everything started, the engine first so it flushes its results while the database is open. */
    async stop(): Promise<void> {
        this.watchdog.stop();
        await this.engine?.stop();
        await this.outbox?.stop();
        if (this.singletons) await this.singletons.stop();
        else await this.stopSingletons();
    }

    /**
     * The heartbeat, channel and probe notices, Telegram pollers, incident sweeper, history upkeep and chain-level
     * checks.
     */
    private async startSingletons(): Promise<void> {
        if (this.queue) {
            // Without the saved states (a database outage) the facts start empty, as on a first start.
            await this.engine
                ?.freshSharedFacts()
                .catch((err) =>
                    this.log.warn(`Reading the saved states for chain-level checks failed: ${err.message}`)
                );
            this.queue.startChainChecks();
        }
        this.pollers?.start();
        this.sweeper.start();
        this.watchdog.startReports();
        this.probes?.start();
        if (this.ctx.config.history.enabled) {
            this.pruner.start();
            this.packer.start();
        }
    }

    private async stopSingletons(): Promise<void> {
        await this.queue?.stopChainChecks();
        this.watchdog.stopReports();
        this.probes?.stop();
        await this.pollers?.stop();
        await this.sweeper.stop();
        await this.pruner.stop();
        await this.packer.stop();
    }
}
