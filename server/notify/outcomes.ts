import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { redact } from '../clients/http';
import type { Db } from '../db/client';
import { type notificationChannels, outbox } from '../db/schema';
import type { EventBus } from '../events';
import type { SendResult } from './channels/types';
import type { Outgoing } from './message-plan';

const MAX_BACKOFF_MS = 10 * 60_000;
/** A channel that keeps refusing for a reason retrying cannot fix (bad token, unknown chat) stops after this. */
const PERMANENT_ATTEMPTS = 5;

type Row = typeof outbox.$inferSelect;
type Channel = typeof notificationChannels.$inferSelect;
export type Refusal = Exclude<SendResult, { outcome: 'accepted' }>;

function retryDelay(result: Refusal, attempts: number): number {
    if (result.outcome === 'retry') return result.afterSeconds * 1000;
    return Math.min(MAX_BACKOFF_MS, 5000 * 2 ** Math.max(0, attempts - 1));
}

/** Writes what became of each message in the outbox, tells the event bus of what was sent, and logs both. */
export class DeliveryOutcomes {
    constructor(
        private readonly db: Db,
        private readonly events: Pick<EventBus, 'emit'>,
        private readonly log: FastifyBaseLogger,
        private readonly now: () => number
    ) {}

    /** Gives up a whole queue at once: its channel is gone, disabled or of a type this build does not know. */
    async failAll(queue: Row[], reason: string): Promise<void> {
        await this.db
            .update(outbox)
            .set({ status: 'failed', lastError: reason })
            .where(
                inArray(
                    outbox.id,
                    queue.map((r) => r.id)
                )
            );
    }

    /** The channel accepted the message (`sent`), or there was none to send for its rows. */
    async accepted(channel: Channel, out: Outgoing, sent: boolean): Promise<void> {
        await this.db
            .update(outbox)
            .set({
                status: 'sent',
                sentAt: new Date(this.now()),
                attempts: sql`${outbox.attempts} + 1`,
                lastError: null,
            })
            .where(
                inArray(
                    outbox.id,
                    out.rows.map((r) => r.id)
                )
            );
        if (!sent) return;
        for (const row of out.rows)
            this.events.emit({
                name: 'NOTIFICATION_SENT',
                channelId: channel.id,
                monitorId: row.monitorId ?? undefined,
            });
        this.log.info(`${out.what} sent to channel "${channel.name}"`);
    }

    /** The message was not accepted: its rows wait for a retry, or are given up after PERMANENT_ATTEMPTS refusals. */
    async failed(channel: Channel, out: Outgoing, result: Refusal): Promise<void> {
        const rows = out.rows;
        // The rows were tried together, so they wait together: one due time keeps them one run next pass.
        const delayMs = retryDelay(result, Math.max(...rows.map((r) => r.attempts)) + 1);
        const permanent = result.outcome === 'permanent';
        const givenUp = permanent ? rows.filter((r) => r.attempts + 1 >= PERMANENT_ATTEMPTS).length : 0;
        const message = redact(result.error).slice(0, 500);
        await this.db
            .update(outbox)
            .set({
                attempts: sql`${outbox.attempts} + 1`,
                lastError: message,
                status: givenUp
                    ? sql`case when ${outbox.attempts} + 1 >= ${PERMANENT_ATTEMPTS} then 'failed' else 'pending' end`
                    : 'pending',
                nextAttemptAt: new Date(this.now() + delayMs),
            })
            .where(
                and(
                    inArray(
                        outbox.id,
                        rows.map((r) => r.id)
                    ),
                    eq(outbox.status, 'pending')
                )
            );
        const outcome =
            givenUp === rows.length
                ? 'given up'
                : `retries in ${Math.round(delayMs / 1000)} s${givenUp ? ` (${givenUp} given up)` : ''}`;
        this.log[givenUp ? 'error' : 'warn'](`${out.what} to channel "${channel.name}" ${outcome}: ${message}`);
    }
}
