import { and, eq, gt, lte, min, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import type { HttpClient } from '../clients/http';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import type { DatabaseHealth } from '../db/outage';
import { outbox } from '../db/schema';
import { ChannelWatch } from '../notify/channel-watch';
import { HEALTH_REUSE_MS, recentRead } from '../db/recent-read';

/** No check started for this long while monitors are scheduled: the engine has stalled. */
const STALL_MS = 2 * 60_000;
/** Checks starting this late (p99 of recent starts) are no longer on time. */
const LATE_MS = 60_000;
/** A due notification no attempt was made for after this long: the outbox is not draining. */
const UNDELIVERED_MS = 15 * 60_000;
/** How often the engine's progress is sampled, whether or not anyone asks. */
const SAMPLE_MS = 15_000;
/** How often channels are looked at for a delivery failure to tell the super admins of. */
const CHANNEL_WATCH_MS = 60_000;
/** HEARTBEAT_URL is the operator's own setting, so it may sit on any network but cloud metadata (always refused). */
const OPERATOR_POLICY = { allowedNetworks: ['0.0.0.0/0', '::/0'] };

/** The engine's progress as the watchdog samples it. */
export interface EngineProgress {
    readonly running: boolean;
    readonly stats: { scheduler: { started: number; lags: number[] }; monitors: number };
}

/** What the watchdog takes of the app (built in server/assembly/background.ts). */
export interface WatchdogPorts {
    /** The outbox it reads and the channels it watches. */
    db: Db;
    dbHealth: DatabaseHealth;
    /** For the heartbeat. */
    http: Pick<HttpClient, 'getText'>;
    config: Pick<AppConfig, 'engineEnabled' | 'heartbeatUrl' | 'heartbeatIntervalSeconds'>;
    /** This process's engine, once it runs; null where none does. */
    engine: () => EngineProgress | null;
}

export interface EngineHealth {
    ok: boolean;
    /** Why not, in a sentence; null when ok. */
    problem: string | null;
    lag_p99_ms: number;
    outbox_backlog: number;
    /** Age of the oldest due, undelivered notification, in seconds; null when none waits. */
    oldest_undelivered_seconds: number | null;
}

/**
 * Watches the watcher: whether checks still start on time and notifications still leave. `/api/health` asks it,
 * and while all is well it requests HEARTBEAT_URL every interval, so a dead-man's switch outside the console
 * alerts when the console stops, stalls or can no longer deliver.
 */
export class Watchdog {
    private started = -1;
    private progressAt = Date.now();
    private timers: NodeJS.Timeout[] = [];
    private reports: NodeJS.Timeout[] = [];
    /** Tells the super admins of a channel the outbox has not delivered to for 15 minutes. */
    readonly channels: ChannelWatch;
    /** What the outbox holds, read at most once a second however often /api/health is asked (routes/health.ts). */
    private readonly outboxFigures = recentRead(HEALTH_REUSE_MS, async () => {
        const backlog = await this.ctx.db.$count(outbox, eq(outbox.status, 'pending'));
        // A channel whose destination failed an attempt is its company's problem, shown on that channel: its rows
        // say nothing about the console. Rows no attempt was made for say the outbox is not draining.
        const failing = alias(outbox, 'failing');
        const [due] = await this.ctx.db
            .select({ oldest: min(outbox.createdAt) })
            .from(outbox)
            .where(
                and(
                    eq(outbox.status, 'pending'),
                    lte(outbox.nextAttemptAt, new Date(this.now())),
                    notExists(
                        this.ctx.db
                            .select({ one: sql`1` })
                            .from(failing)
                            .where(
                                and(
                                    eq(failing.channelId, outbox.channelId),
                                    eq(failing.status, 'pending'),
                                    gt(failing.attempts, 0)
                                )
                            )
                    )
                )
            );
        return { backlog, oldestDue: due?.oldest ?? null };
    });

    constructor(
        private readonly ctx: WatchdogPorts,
        private readonly log: FastifyBaseLogger,
        private readonly now: () => number = () => Date.now()
    ) {
        this.channels = new ChannelWatch(ctx, log, now);
    }

    /** Samples this process's engine, for /api/health; every process that runs checks does. */
    start(): void {
        this.timers = [setInterval(() => this.sample(), SAMPLE_MS)];
        for (const t of this.timers) t.unref();
    }

    /**
     * Sends the heartbeat and the channel notices, which leave the console: one process of the cluster does
     * (server/assembly/background.ts), so operators get one of each, not one per worker.
     */
    startReports(): void {
        // Another process may have told of failures since this one last did: read them again from the outbox.
        this.channels.forget();
        this.reports = [
            setInterval(() => void this.beat(), this.ctx.config.heartbeatIntervalSeconds * 1000),
            setInterval(() => void this.watchChannels(), CHANNEL_WATCH_MS),
        ];
        for (const t of this.reports) t.unref();
    }

    stopReports(): void {
        for (const t of this.reports) clearInterval(t);
        this.reports = [];
    }

    stop(): void {
        this.stopReports();
        for (const t of this.timers) clearInterval(t);
        this.timers = [];
    }

    /** Notes when the engine last started a check. */
    private sample(): void {
        const started = this.ctx.engine()?.stats.scheduler.started;
        if (started !== undefined && started !== this.started) {
            this.started = started;
            this.progressAt = this.now();
        }
    }

    async health(): Promise<EngineHealth> {
        this.sample();
        const engine = this.ctx.engine();
        const now = this.now();
        const stats = engine?.stats;
        const lags = stats ? stats.scheduler.lags.slice(-1000).sort((a, b) => a - b) : [];
        const lag = lags[Math.min(lags.length - 1, Math.floor(lags.length * 0.99))] ?? 0;
        const { backlog, oldestDue } = await this.outboxFigures.get();
        const oldest = oldestDue ? Math.round((now - new Date(oldestDue).getTime()) / 1000) : null;
        let problem: string | null = null;
        if (this.ctx.config.engineEnabled && !engine?.running) problem = 'The monitoring engine is not running';
        else if (stats && stats.monitors > 0 && now - this.progressAt > STALL_MS)
            problem = `The monitoring engine has started no check for ${Math.round((now - this.progressAt) / 1000)} s`;
        else if (lag > LATE_MS) problem = `Checks start ${Math.round(lag / 1000)} s late`;
        else if (oldest !== null && oldest * 1000 > UNDELIVERED_MS)
            problem = `A notification has waited ${Math.round(oldest / 60)} min to be delivered`;
        return {
            ok: problem === null,
            problem,
            lag_p99_ms: Math.round(lag),
            outbox_backlog: Number(backlog),
            oldest_undelivered_seconds: oldest,
        };
    }

    private async watchChannels(): Promise<void> {
        try {
            await this.channels.check();
        } catch (err) {
            if (!this.ctx.dbHealth.failed(err, 'the channel watch')) this.log.error({ err }, 'Channel watch failed');
        }
    }

    /** One heartbeat, sent only while the engine is healthy; its failure is logged, never fatal. */
    async beat(): Promise<boolean> {
        const url = this.ctx.config.heartbeatUrl;
        if (!url) return false;
        try {
            const health = await this.health();
            if (!health.ok) {
                this.log.warn(`Heartbeat withheld: ${health.problem}`);
                return false;
            }
            await this.ctx.http.getText(url, { policy: OPERATOR_POLICY });
            return true;
        } catch (err) {
            this.log.warn(`Heartbeat failed: ${(err as Error).message}`);
            return false;
        }
    }
}
