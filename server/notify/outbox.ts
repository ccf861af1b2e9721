import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelType } from '../../common/channel-types';
import type { EgressPolicies } from '../clients/egress-policies';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import type { DatabaseHealth } from '../db/outage';
import type { EventBus } from '../events';
import { notificationChannels, outbox } from '../db/schema';
import { subscriberChannels } from '../status-pages/subscribers';
import { CHANNELS, type ChannelConfig, type ChannelDefinition } from './channels';
import type { NotifyContext, SendResult } from './channels/types';
import { claimRows, releaseRows } from './claims';
import { notifyContext, type SenderPorts } from './context';
import { planMessages } from './message-plan';
import { DeliveryOutcomes } from './outcomes';
import { ChannelPacer, type Pacing, type SendLog } from './pacing';
import { DownDestinations, PROBE_INTERVAL_MS } from './probing';
import { sendableSettings } from './sendable-settings';
import { releaseHeld } from './server-hold';

export { type Pacing, PROBE_INTERVAL_MS };

const BATCH = 200;

type Row = typeof outbox.$inferSelect;
type Channel = typeof notificationChannels.$inferSelect;

/** What the outbox takes of the app (built in server/assembly/background.ts): the queue it drains, the senders' needs. */
export interface OutboxPorts extends SenderPorts {
    db: Db;
    dbHealth: DatabaseHealth;
    /** Told of each delivery (NOTIFICATION_SENT). */
    events: Pick<EventBus, 'emit'>;
    egress: Pick<EgressPolicies, 'forCompany'>;
    keys: { secretsAtRest: Uint8Array };
    config: SenderPorts['config'] & Pick<AppConfig, 'publicUrl'>;
    /** Other processes deliver from the same outbox (the cluster profile): rows are claimed before they are sent. */
    shared?: boolean;
    /** Where each channel's sends are counted for its pacing: Redis in the cluster profile, else this dispatcher's memory. */
    sendLog?: SendLog;
}

/**
 * Delivers queued notifications: per channel strictly in queue order (a message waits behind an earlier one
 * that is backing off), channels in parallel and independently (a pass never waits for a channel still sending
 * from an earlier one), a destination's retry-after honoured, transient failures retried for ever with backoff,
 * and an unreachable destination probed every PROBE_INTERVAL_MS (probing.ts) so its backlog goes out as soon as it
 * answers. A row is marked sent only after the channel accepted it (outcomes.ts). Each channel is sent at most its
 * type's messages per minute (pacing.ts); a backlog beyond DIGEST_THRESHOLD goes out as digests (message-plan.ts).
 */
export class OutboxDispatcher {
    private timer: NodeJS.Timeout | null = null;
    private stopped = false;
    private readonly pacer: ChannelPacer;
    private readonly down: DownDestinations;
    private readonly outcomes: DeliveryOutcomes;
    private readonly inFlight = new Map<number, Promise<number>>();
    private readonly passes = new Set<Promise<number>>();
    private selecting = false;
    /** Orders pass starts and channel finishes: a pass that read the queue before a channel finished skips it. */
    private clock = 0;
    private readonly finishedAt = new Map<number, number>();

    constructor(
        private readonly ctx: OutboxPorts,
        private readonly log: FastifyBaseLogger,
        private readonly pollMs = 1000,
        pacing: Partial<Pacing> = {}
    ) {
        this.pacer = new ChannelPacer(pacing, ctx.sendLog);
        const now = () => this.pacer.now();
        this.down = new DownDestinations(
            now,
            log,
            () => this.stopped,
            (ids) => this.backlogDue(ids)
        );
        this.outcomes = new DeliveryOutcomes(ctx.db, ctx.events, log, now);
    }

    start(): void {
        this.stopped = false;
        this.timer = setInterval(() => {
            if (!this.selecting) void this.deliverDue();
        }, this.pollMs);
    }

    async stop(): Promise<void> {
        this.stopped = true;
        if (this.timer) clearInterval(this.timer);
        await Promise.all([...this.passes, ...this.inFlight.values()]);
    }

    /** One delivery pass over the channels not already sending. Returns how many queued notifications it delivered. */
    deliverDue(): Promise<number> {
        const pass = this.pass()
            .catch((err) => {
                if (!this.ctx.dbHealth.failed(err, 'notification delivery'))
                    this.log.error({ err }, 'Notification delivery pass failed');
                return 0;
            })
            .finally(() => {
                this.passes.delete(pass);
            });
        this.passes.add(pass);
        return pass;
    }

    private async pass(): Promise<number> {
        this.down.probeDue();
        const db = this.ctx.db;
        await releaseHeld(db, this.pacer.now());
        const startedAt = ++this.clock;
        this.selecting = true;
        let rows: Row[];
        try {
            // Every channel's queue head comes first (then the second rows, …): a channel with a long queue that is
            // backing off must not fill the batch and starve the others. Within a channel the order stays by id.
            rows = await db
                .select()
                .from(outbox)
                .where(eq(outbox.status, 'pending'))
                .orderBy(
                    sql`row_number() over (partition by ${outbox.channelId} order by ${outbox.id})`,
                    asc(outbox.id)
                )
                .limit(BATCH);
        } finally {
            this.selecting = false;
        }
        const byChannel = new Map<number, Row[]>();
        for (const r of rows) {
            if (this.inFlight.has(r.channelId) || (this.finishedAt.get(r.channelId) ?? 0) > startedAt) continue;
            byChannel.set(r.channelId, [...(byChannel.get(r.channelId) ?? []), r]);
        }
        if (byChannel.size === 0) return 0;
        const ids = [...byChannel.keys()];
        // Negative ids are status-page subscribers (status-pages/subscribers.ts), sent as the channels they stand for.
        const channels = [
            ...(await db
                .select()
                .from(notificationChannels)
                .where(
                    inArray(
                        notificationChannels.id,
                        ids.filter((id) => id > 0)
                    )
                )),
            ...(await subscriberChannels(db, ids)),
        ];
        const sent = await Promise.all(
            [...byChannel].map(([id, queue]) => {
                if (this.inFlight.has(id)) return 0;
                const run = this.deliverChannel(
                    queue,
                    channels.find((c) => c.id === id)
                ).finally(() => {
                    this.inFlight.delete(id);
                    this.finishedAt.set(id, ++this.clock);
                });
                this.inFlight.set(id, run);
                return run;
            })
        );
        return sent.reduce((a, b) => a + b, 0);
    }

    /** A destination answers again: its channels' backlog is due now, not when each row's backoff ends. */
    private async backlogDue(channelIds: number[]): Promise<void> {
        await this.ctx.db
            .update(outbox)
            .set({ nextAttemptAt: new Date(this.pacer.now()) })
            .where(and(eq(outbox.status, 'pending'), inArray(outbox.channelId, channelIds)));
        await this.deliverDue();
    }

    private async deliverChannel(queue: Row[], channel: Channel | undefined): Promise<number> {
        if (!channel?.isEnabled) {
            await this.outcomes.failAll(queue, channel ? 'the channel is disabled' : 'the channel was deleted');
            return 0;
        }
        const def = CHANNELS[channel.type as ChannelType] as ChannelDefinition | undefined;
        if (!def) {
            await this.outcomes.failAll(queue, `unknown channel type ${channel.type}`);
            return 0;
        }
        // Delivered on behalf of the channel's company: its allowed networks apply.
        const nctx = notifyContext(this.ctx, await this.ctx.egress.forCompany(channel.companyId));
        const settings = sendableSettings(def, channel, this.ctx.keys.secretsAtRest);
        const config = settings.config;
        const destination = config ? `${def.type} ${def.destination(nctx, config)}` : null;
        // Its messages wait for the probe, not for each one's own backoff; the probe then sends them at once.
        if (this.down.holds(destination, channel.id)) return 0;
        const now = this.pacer.now();
        const firstLater = queue.findIndex((r) => r.nextAttemptAt.getTime() > now);
        let due = firstLater < 0 ? queue : queue.slice(0, firstLater);
        if (this.ctx.shared) {
            const claimed = await claimRows(
                this.ctx.db,
                due.map((r) => r.id),
                now
            );
            due = due.slice(0, claimed.length);
        }
        const unsent = new Set(this.ctx.shared ? due.map((r) => r.id) : []);
        try {
            return await this.sendDue(def, channel, nctx, settings, destination, due, unsent);
        } finally {
            await releaseRows(this.ctx.db, [...unsent], now);
        }
    }

    private async sendDue(
        def: ChannelDefinition,
        channel: Channel,
        nctx: NotifyContext,
        { config, refusal }: ReturnType<typeof sendableSettings>,
        destination: string | null,
        due: Row[],
        /** Claimed rows not yet sent or rescheduled; what is left is released. */
        unsent: Set<number>
    ): Promise<number> {
        let delivered = 0;
        for (const out of planMessages(def, due, this.ctx.config.publicUrl)) {
            if (this.stopped || !(await this.pacer.hasBudget(channel.id, def.limits.perMinute))) break;
            const result: SendResult =
                refusal ??
                (out.message === null
                    ? { outcome: 'accepted' }
                    : await this.sendOne(def, nctx, channel.id, config, out.message));
            for (const r of out.rows) unsent.delete(r.id);
            if (result.outcome !== 'accepted') {
                await this.outcomes.failed(channel, out, result);
                if (result.outcome === 'transient' && result.unreachable && config && destination)
                    this.down.markDown(destination, channel.id, () => def.probe(nctx, config));
                break;
            }
            await this.outcomes.accepted(channel, out, out.message !== null);
            delivered += out.rows.length;
        }
        return delivered;
    }

    private async sendOne(
        def: ChannelDefinition,
        nctx: NotifyContext,
        channelId: number,
        config: ChannelConfig,
        message: unknown
    ): Promise<SendResult> {
        await this.pacer.tried(channelId);
        try {
            return await def.send(nctx, config, message);
        } catch (err) {
            return { outcome: 'transient', error: (err as Error).message ?? String(err) };
        }
    }
}
