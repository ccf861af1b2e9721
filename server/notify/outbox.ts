import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelType } from '../../common/channel-types';
import { redact, withPolicy } from '../clients/http';
import type { AppContext } from '../context';
import { notificationChannels, outbox } from '../db/schema';
import { channelConfig } from '../repositories/notification-channels';
import { CHANNELS } from './channels';
import { buildDigest } from './digest';

const BATCH = 200;
const MAX_BACKOFF_MS = 10 * 60_000;
/** A channel that keeps refusing for a reason retrying cannot fix (bad token, unknown chat) stops after this. */
const PERMANENT_ATTEMPTS = 5;
/** Telegram lets a bot post about 20 messages a minute into one group; beyond that it answers 429 for minutes. */
const CHAT_LIMIT = 20;
const CHAT_WINDOW_MS = 60_000;
/**
 * More due rows than this in one channel go out as digests: at 20 messages a minute, a mass outage sent one by
 * one would take hours to reach the chat.
 */
export const DIGEST_THRESHOLD = 3;

type Row = typeof outbox.$inferSelect;
type Channel = typeof notificationChannels.$inferSelect;

export interface Pacing {
    /** Messages one channel is sent within `windowMs`, sliding. */
    limit: number;
    windowMs: number;
    /** The clock of due times, backoff and the window; tests drive it instead of waiting. */
    now: () => number;
}

function retryDelay(err: unknown, attempts: number): { delayMs: number; permanent: boolean } {
    const e = err as { retryAfter?: number; status?: number };
    if (typeof e.retryAfter === 'number') return { delayMs: e.retryAfter * 1000, permanent: false };
    const permanent = e.status !== undefined && [400, 401, 403, 404].includes(e.status);
    return { delayMs: Math.min(MAX_BACKOFF_MS, 5000 * 2 ** Math.max(0, attempts - 1)), permanent };
}

/**
 * Delivers queued notifications: per channel strictly in queue order (a message waits behind an earlier one
 * that is backing off), channels in parallel, Telegram's retry_after honoured, transient failures retried for
 * ever with backoff. A row is marked sent only after the channel accepted it. Each channel is sent at most
 * `pacing.limit` messages per window; a backlog beyond DIGEST_THRESHOLD goes out as digests of one line per row.
 */
export class OutboxDispatcher {
    private timer: NodeJS.Timeout | null = null;
    private running: Promise<number> | null = null;
    private stopped = false;
    private readonly pacing: Pacing;
    /** When each channel was last sent messages, within the window: kept in memory, so a restart forgets it. */
    private readonly recent = new Map<number, number[]>();

    constructor(
        private readonly ctx: AppContext,
        private readonly log: FastifyBaseLogger,
        private readonly pollMs = 1000,
        pacing: Partial<Pacing> = {}
    ) {
        // Date.now is looked up on each call, not captured: faking Date also moves PGlite's now(), which sets the due
        // times this clock is compared with.
        this.pacing = { limit: CHAT_LIMIT, windowMs: CHAT_WINDOW_MS, now: () => Date.now(), ...pacing };
    }

    start(): void {
        this.stopped = false;
        this.timer = setInterval(() => void this.deliverDue(), this.pollMs);
    }

    async stop(): Promise<void> {
        this.stopped = true;
        if (this.timer) clearInterval(this.timer);
        await this.running;
    }

    /** One delivery pass; concurrent calls share it. Returns how many queued notifications were delivered. */
    deliverDue(): Promise<number> {
        if (!this.running) {
            this.running = this.pass()
                .catch((err) => {
                    this.log.error({ err }, 'Notification delivery pass failed');
                    return 0;
                })
                .finally(() => {
                    this.running = null;
                });
        }
        return this.running;
    }

    private async pass(): Promise<number> {
        const db = this.ctx.db;
        // Every channel's queue head comes first (then the second rows, …): a channel with a long queue that is
        // backing off must not fill the batch and starve the others. Within a channel the order stays by id.
        const rows = await db
            .select()
            .from(outbox)
            .where(eq(outbox.status, 'pending'))
            .orderBy(sql`row_number() over (partition by ${outbox.channelId} order by ${outbox.id})`, asc(outbox.id))
            .limit(BATCH);
        if (rows.length === 0) return 0;
        const byChannel = new Map<number, Row[]>();
        for (const r of rows) byChannel.set(r.channelId, [...(byChannel.get(r.channelId) ?? []), r]);
        const channels = await db
            .select()
            .from(notificationChannels)
            .where(inArray(notificationChannels.id, [...byChannel.keys()]));
        const sent = await Promise.all(
            [...byChannel].map(([id, queue]) =>
                this.deliverChannel(
                    queue,
                    channels.find((c) => c.id === id)
                )
            )
        );
        return sent.reduce((a, b) => a + b, 0);
    }

    private async deliverChannel(queue: Row[], channel: Channel | undefined): Promise<number> {
        if (!channel?.isEnabled) {
            const reason = channel ? 'the channel is disabled' : 'the channel was deleted';
            await this.ctx.db
                .update(outbox)
                .set({ status: 'failed', lastError: reason })
                .where(
                    inArray(
                        outbox.id,
                        queue.map((r) => r.id)
                    )
                );
            return 0;
        }
        const now = this.pacing.now();
        const firstLater = queue.findIndex((r) => r.nextAttemptAt.getTime() > now);
        const due = firstLater < 0 ? queue : queue.slice(0, firstLater);
        const digests = due.length > DIGEST_THRESHOLD;
        let delivered = 0;
        while (delivered < due.length && !this.stopped && this.hasBudget(channel.id)) {
            const message = digests ? this.nextDigest(due.slice(delivered)) : null;
            const rows = message?.rows ?? due.slice(delivered, delivered + 1);
            if (!(await this.send(channel, rows, message?.text ?? rows[0]?.text ?? ''))) break;
            delivered += rows.length;
        }
        return delivered;
    }

    /**
     * The digest that starts the queue, or null when its head goes out alone: a test message is meant to be seen as
     * it is, and a digest of one line would say less than the message itself.
     */
    private nextDigest(queue: Row[]): { rows: Row[]; text: string } | null {
        const firstTest = queue.findIndex((r) => r.kind === 'test');
        const run = firstTest < 0 ? queue : queue.slice(0, firstTest);
        if (run.length < 2) return null;
        const digest = buildDigest(run);
        return { rows: run.slice(0, digest.rowIds.length), text: digest.text };
    }

    /** Whether the channel may be sent another message now (by the sliding window of `pacing`). */
    private hasBudget(channelId: number): boolean {
        const now = this.pacing.now();
        const recent = (this.recent.get(channelId) ?? []).filter((t) => now - t < this.pacing.windowMs);
        if (recent.length === 0) this.recent.delete(channelId);
        else this.recent.set(channelId, recent);
        return recent.length < this.pacing.limit;
    }

    /** Sends one message standing for `rows`; true when the channel accepted it and the rows are marked sent. */
    private async send(channel: Channel, rows: Row[], text: string): Promise<boolean> {
        const ids = rows.map((r) => r.id);
        const what = rows.length === 1 ? `Notification (${rows[0]?.kind})` : `Digest of ${rows.length} notifications`;
        try {
            const notifier = CHANNELS[channel.type as ChannelType];
            const checked = notifier.validate(channelConfig(this.ctx.keys.secretsAtRest, channel, true));
            if (!checked.ok) {
                const why = Object.entries(checked.errors)
                    .map(([k, v]) => `${k}: ${v}`)
                    .join('; ');
                throw Object.assign(new Error(`the channel settings are invalid (${why})`), { status: 400 });
            }
            // Counted when tried: a refused request still counts towards Telegram's flood control.
            this.recent.set(channel.id, [...(this.recent.get(channel.id) ?? []), this.pacing.now()]);
            // Delivered on behalf of the channel's company: its allowed networks apply.
            const policy = await this.ctx.egress.forCompany(channel.companyId);
            await notifier.send(
                { http: withPolicy(this.ctx.http, policy), telegramApiUrl: this.ctx.config.telegramApiUrl },
                checked.config,
                text
            );
            await this.ctx.db
                .update(outbox)
                .set({
                    status: 'sent',
                    sentAt: new Date(this.pacing.now()),
                    attempts: sql`${outbox.attempts} + 1`,
                    lastError: null,
                })
                .where(inArray(outbox.id, ids));
            for (const row of rows)
                this.ctx.events.emit({
                    name: 'NOTIFICATION_SENT',
                    channelId: channel.id,
                    monitorId: row.monitorId ?? undefined,
                });
            this.log.info(`${what} sent to channel "${channel.name}"`);
            return true;
        } catch (err) {
            // The rows were tried together, so they wait together: one due time keeps them one run next pass.
            const { delayMs, permanent } = retryDelay(err, Math.max(...rows.map((r) => r.attempts)) + 1);
            const givenUp = permanent ? rows.filter((r) => r.attempts + 1 >= PERMANENT_ATTEMPTS).length : 0;
            const message = redact((err as Error).message ?? String(err)).slice(0, 500);
            await this.ctx.db
                .update(outbox)
                .set({
                    attempts: sql`${outbox.attempts} + 1`,
                    lastError: message,
                    status: givenUp
                        ? sql`case when ${outbox.attempts} + 1 >= ${PERMANENT_ATTEMPTS} then 'failed' else 'pending' end`
                        : 'pending',
                    nextAttemptAt: new Date(this.pacing.now() + delayMs),
                })
                .where(and(inArray(outbox.id, ids), eq(outbox.status, 'pending')));
            const outcome =
                givenUp === rows.length
                    ? 'given up'
                    : `retries in ${Math.round(delayMs / 1000)} s${givenUp ? ` (${givenUp} given up)` : ''}`;
            this.log[givenUp ? 'error' : 'warn'](`${what} to channel "${channel.name}" ${outcome}: ${message}`);
            return false;
        }
    }
}
