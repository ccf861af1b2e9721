import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';
import { Engine } from '../engine/engine';
import { QueueScheduler } from '../engine/queue-scheduler';
import { Watchdog } from '../engine/watchdog';
import { HistoryPacker } from '../history/packer';
import { HistoryPruner } from '../history/pruner';
import { IncidentSweeper } from '../incidents/sweeper';
import { telegramActions } from '../incidents/telegram-actions';
import { OutboxDispatcher } from '../notify/outbox';
import { TelegramPollers } from '../notify/telegram/poller';

/**
 * The composition root of the parts that run beside the API: the engine, the outbox, the Telegram pollers, the
 * incident sweeper, the history pruner and the watchdog. Each is handed only the ports it takes (the store it
 * writes, the clock, the events it follows), never the whole app context, so none of them depends on the others
 * or on the HTTP side.
 */
export class BackgroundParts {
    /** Asked by /api/health in every process; sends the heartbeat where the engine runs. */
    readonly watchdog: Watchdog;
    private engine: Engine | null = null;
    private outbox: OutboxDispatcher | null = null;
    private pollers: TelegramPollers | null = null;
    private readonly sweeper: IncidentSweeper;
    private readonly pruner: HistoryPruner;
    private readonly packer: HistoryPacker;

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
        const redisUrl = config.redisUrl;
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
                // The cluster profile: checks are scheduled on BullMQ and run by whichever worker takes them.
                schedule: redisUrl
                    ? (run, concurrency) => new QueueScheduler(run, concurrency, { redisUrl, log })
                    : undefined,
                sharedState: Boolean(redisUrl),
                locations: redisUrl ? { redisUrl, here: config.probeLocation } : undefined,
                observations: ctx.sharedState.observations ?? undefined,
            }
        );
        ctx.engine = this.engine;
        await this.engine.start();
        const senders = { http, config, egress, keys: { secretsAtRest: keys.secretsAtRest } };
        this.outbox = new OutboxDispatcher(
            { ...senders, db, dbHealth, events, shared: Boolean(redisUrl), sendLog: ctx.sharedState.sendLog },
            log
        );
        this.outbox.start();
        // Telegram button presses acknowledge incidents and silence monitors from the chat.
        this.pollers = new TelegramPollers({ ...senders, db, events }, log, {
            actions: telegramActions({ db, events, silences: ctx.silences }),
        });
        this.pollers.start();
        this.sweeper.start();
        this.watchdog.start();
        if (config.history.enabled) {
            this.pruner.start();
            this.packer.start();
        }
    }

    /** Stops everything started, the engine first so it flushes its results while the database is open. */
    async stop(): Promise<void> {
        this.watchdog.stop();
        await this.engine?.stop();
        await this.outbox?.stop();
        await this.pollers?.stop();
        await this.sweeper.stop();
        await this.pruner.stop();
        await this.packer.stop();
    }
}
