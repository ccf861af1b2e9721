import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelType } from '../../common/channel-types';
import { redact } from '../clients/http';
import type { AppContext } from '../context';
import { notificationChannels, outbox } from '../db/schema';
import { channelConfig } from '../repositories/notification-channels';
import { CHANNELS } from './channels';

const BATCH = 200;
const MAX_BACKOFF_MS = 10 * 60_000;
/** A channel that keeps refusing for a reason retrying cannot fix (bad token, unknown chat) stops after this. */
const PERMANENT_ATTEMPTS = 5;

type Row = typeof outbox.$inferSelect;

function retryDelay(err: unknown, attempts: number): { delayMs: number; permanent: boolean } {
    const e = err as { retryAfter?: number; status?: number };
    if (typeof e.retryAfter === 'number') return { delayMs: e.retryAfter * 1000, permanent: false };
    const permanent = e.status !== undefined && [400, 401, 403, 404].includes(e.status);
    return { delayMs: Math.min(MAX_BACKOFF_MS, 5000 * 2 ** Math.max(0, attempts - 1)), permanent };
}

/**
 * Delivers queued notifications: per channel strictly in queue order (a message waits behind an earlier one
 * that is backing off), channels in parallel, Telegram's retry_after honoured, transient failures retried for
 * ever with backoff. A row is marked sent only after the channel accepted it.
 */
export class OutboxDispatcher {
    private timer: NodeJS.Timeout | null = null;
    private running: Promise<number> | null = null;
    private stopped = false;

    constructor(
        private readonly ctx: AppContext,
        private readonly log: FastifyBaseLogger,
        private readonly pollMs = 1000
    ) {}

    start(): void {
        this.stopped = false;
        this.timer = setInterval(() => void this.deliverDue(), this.pollMs);
    }

    async stop(): Promise<void> {
        this.stopped = true;
        if (this.timer) clearInterval(this.timer);
        await this.running;
    }

    /** One delivery pass; concurrent calls share it. Returns how many messages were sent. */
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

    private async deliverChannel(
        queue: Row[],
        channel: typeof notificationChannels.$inferSelect | undefined
    ): Promise<number> {
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
        let sent = 0;
        for (const row of queue) {
            if (this.stopped || row.nextAttemptAt.getTime() > Date.now()) break;
            try {
                const notifier = CHANNELS[channel.type as ChannelType];
                const checked = notifier.validate(channelConfig(this.ctx.keys.secretsAtRest, channel, true));
                if (!checked.ok) {
                    const why = Object.entries(checked.errors)
                        .map(([k, v]) => `${k}: ${v}`)
                        .join('; ');
                    throw Object.assign(new Error(`the channel settings are invalid (${why})`), { status: 400 });
                }
                await notifier.send(
                    { http: this.ctx.http, telegramApiUrl: this.ctx.config.telegramApiUrl },
                    checked.config,
                    row.text
                );
                await this.ctx.db
                    .update(outbox)
                    .set({ status: 'sent', sentAt: new Date(), attempts: row.attempts + 1, lastError: null })
                    .where(eq(outbox.id, row.id));
                this.ctx.events.emit({
                    name: 'NOTIFICATION_SENT',
                    channelId: channel.id,
                    monitorId: row.monitorId ?? undefined,
                });
                this.log.info(`Notification (${row.kind}) sent to channel "${channel.name}"`);
                sent++;
            } catch (err) {
                const attempts = row.attempts + 1;
                const { delayMs, permanent } = retryDelay(err, attempts);
                const giveUp = permanent && attempts >= PERMANENT_ATTEMPTS;
                const message = redact((err as Error).message ?? String(err)).slice(0, 500);
                await this.ctx.db
                    .update(outbox)
                    .set({
                        attempts,
                        lastError: message,
                        status: giveUp ? 'failed' : 'pending',
                        nextAttemptAt: new Date(Date.now() + delayMs),
                    })
                    .where(and(eq(outbox.id, row.id), eq(outbox.status, 'pending')));
                this.log[giveUp ? 'error' : 'warn'](
                    `Notification (${row.kind}) to channel "${channel.name}" ${giveUp ? 'given up' : `retries in ${Math.round(delayMs / 1000)} s`}: ${message}`
                );
                break;
            }
        }
        return sent;
    }
}
