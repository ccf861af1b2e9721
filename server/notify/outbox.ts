import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { redact } from '../clients/http';
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelType } from '../../common/channel-types';
import type { AppContext } from '../context';
import { notificationChannels, outbox } from '../db/schema';
import { subscriberChannels } from '../status-pages/subscribers';
import { channelConfig } from '../repositories/notification-channels';
import { CHANNELS, type ChannelConfig, type ChannelDefinition, validateChannelSettings } from './channels';
import type { NotifyContext, SendResult } from './channels/types';
import { notifyContext } from './context';
import { isDeliveryNotice, type NotificationRecord, parsePayload, withLink } from './record';

const BATCH = 200;
const MAX_BACKOFF_MS = 10 * 60_000;
/** A channel that keeps refusing for a reason retrying cannot fix (bad token, unknown chat) stops after this. */
const PERMANENT_ATTEMPTS = 5;
const WINDOW_MS = 60_000;
/**
 * While a destination does not answer, one cheap probe goes to it this often instead of the backlog's backoff: the
 * first message then goes out within seconds of it answering again, however long the outage was.
 */
export const PROBE_INTERVAL_MS = 2000;
/**
 * More due rows than this in one channel go out as digests: at 20 messages a minute, a mass outage sent one by
 * one would take hours to reach the chat.
 */
export const DIGEST_THRESHOLD = 3;

type Row = typeof outbox.$inferSelect;
type Channel = typeof notificationChannels.$inferSelect;

export interface Pacing {
    /** Messages one channel is sent within `windowMs`, sliding; by default its type's own limit per minute. */
    limit?: number;
    windowMs: number;
    /** The clock of due times, backoff and the window; tests drive it instead of waiting. */
    now: () => number;
}

/** A destination that did not answer: its channels wait for a probe to get an answer, not for their backoff. */
interface Down {
    channels: Set<number>;
    nextProbeAt: number;
    probing: boolean;
    probe: () => Promise<boolean>;
}

/** One message of a channel and the rows it stands for (one row, a digest, or an alert with its late reminders). */
interface Outgoing {
    rows: Row[];
    message: unknown;
    what: string;
}

function retryDelay(result: Exclude<SendResult, { outcome: 'accepted' }>, attempts: number): number {
    if (result.outcome === 'retry') return result.afterSeconds * 1000;
    return Math.min(MAX_BACKOFF_MS, 5000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Delivers queued notifications: per channel strictly in queue order (a message waits behind an earlier one
 * that is backing off), channels in parallel and independently (a pass never waits for a channel still sending
 * from an earlier one), a destination's retry-after honoured, transient failures retried for ever with backoff,
 * and an unreachable destination probed every PROBE_INTERVAL_MS so its backlog goes out as soon as it answers.
 * A row is marked sent only after the channel accepted it. Each channel is sent at most its type's messages per
 * minute; a backlog beyond DIGEST_THRESHOLD goes out as digests of one line per row.
 */
export class OutboxDispatcher {
    private timer: NodeJS.Timeout | null = null;
    private stopped = false;
    private readonly pacing: Pacing;
    /** When each channel was last sent messages, within the window: kept in memory, so a restart forgets it. */
    private readonly recent = new Map<number, number[]>();
    private readonly inFlight = new Map<number, Promise<number>>();
    private readonly down = new Map<string, Down>();
    private readonly passes = new Set<Promise<number>>();
    private selecting = false;
    /** Orders pass starts and channel finishes: a pass that read the queue before a channel finished skips it. */
    private clock = 0;
    private readonly finishedAt = new Map<number, number>();

    constructor(
        private readonly ctx: AppContext,
        private readonly log: FastifyBaseLogger,
        private readonly pollMs = 1000,
        pacing: Partial<Pacing> = {}
    ) {
        // Date.now is looked up on each call, not captured: faking Date also moves PGlite's now(), which sets the due
        // times this clock is compared with.
        this.pacing = { windowMs: WINDOW_MS, now: () => Date.now(), ...pacing };
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
        this.probeDown();
        const db = this.ctx.db;
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

    /** Starts the probes that are due; one that gets an answer makes the destination's backlog due at once. */
    private probeDown(): void {
        const now = this.pacing.now();
        for (const [key, d] of this.down) {
            if (d.probing || d.nextProbeAt > now || this.stopped) continue;
            d.probing = true;
            d.nextProbeAt = now + PROBE_INTERVAL_MS;
            void d
                .probe()
                .catch(() => false)
                .then(async (up) => {
                    d.probing = false;
                    if (!up || this.stopped) return;
                    this.down.delete(key);
                    this.log.info(`Notification destination ${redact(key)} answers again: sending its backlog`);
                    await this.ctx.db
                        .update(outbox)
                        .set({ nextAttemptAt: new Date(this.pacing.now()) })
                        .where(and(eq(outbox.status, 'pending'), inArray(outbox.channelId, [...d.channels])));
                    await this.deliverDue();
                })
                .catch((err) => this.log.error({ err }, 'Notification destination probe failed'));
        }
    }

    private async failAll(queue: Row[], reason: string): Promise<void> {
        await this.ctx.db
            .update(outbox)
            .set({ status: 'failed', lastError: reason })
            .where(
                inArray(
                    outbox.id,
                    queue.map((r) => r.id)
                )
            );
    }

    private async deliverChannel(queue: Row[], channel: Channel | undefined): Promise<number> {
        if (!channel?.isEnabled) {
            await this.failAll(queue, channel ? 'the channel is disabled' : 'the channel was deleted');
            return 0;
        }
        const def = CHANNELS[channel.type as ChannelType] as ChannelDefinition | undefined;
        if (!def) {
            await this.failAll(queue, `unknown channel type ${channel.type}`);
            return 0;
        }
        // Delivered on behalf of the channel's company: its allowed networks apply.
        const nctx = notifyContext(this.ctx, await this.ctx.egress.forCompany(channel.companyId));
        let config: ChannelConfig | null = null;
        // Why nothing can be sent with these settings: invalid ones are refused for good, an unreadable secret may
        // come back with the right key.
        let refusal: Exclude<SendResult, { outcome: 'accepted' }> | null = null;
        try {
            const checked = validateChannelSettings(
                def.type,
                channelConfig(this.ctx.keys.secretsAtRest, channel, true)
            );
            if (checked.ok) config = checked.config;
            else {
                const why = Object.entries(checked.errors)
                    .map(([k, v]) => `${k}: ${v}`)
                    .join('; ');
                refusal = { outcome: 'permanent', error: `the channel settings are invalid (${why})` };
            }
        } catch (err) {
            refusal = { outcome: 'transient', error: (err as Error).message };
        }
        const destination = config ? `${def.type} ${def.destination(nctx, config)}` : null;
        const down = destination ? this.down.get(destination) : undefined;
        if (down) {
            // Its messages wait for the probe, not for each one's own backoff; the probe then sends them at once.
            down.channels.add(channel.id);
            return 0;
        }
        const now = this.pacing.now();
        const firstLater = queue.findIndex((r) => r.nextAttemptAt.getTime() > now);
        const due = firstLater < 0 ? queue : queue.slice(0, firstLater);
        const plan = this.plan(def, collapse(due));
        let delivered = 0;
        for (const out of plan) {
            if (this.stopped || !this.hasBudget(channel.id, def)) break;
            const result: SendResult =
                refusal || !config
                    ? (refusal ?? { outcome: 'permanent', error: 'the channel settings are invalid' })
                    : out.message === null
                      ? { outcome: 'accepted' }
                      : await this.sendOne(def, nctx, channel, config, out.message);
            if (result.outcome !== 'accepted') {
                await this.failed(channel, out, result);
                if (result.outcome === 'transient' && result.unreachable && config && destination) {
                    const cfg = config;
                    const entry = this.down.get(destination) ?? {
                        channels: new Set<number>(),
                        nextProbeAt: this.pacing.now() + PROBE_INTERVAL_MS,
                        probing: false,
                        probe: () => def.probe(nctx, cfg),
                    };
                    entry.channels.add(channel.id);
                    this.down.set(destination, entry);
                }
                break;
            }
            await this.accepted(channel, out, out.message !== null);
            delivered += out.rows.length;
        }
        return delivered;
    }

    private async sendOne(
        def: ChannelDefinition,
        nctx: NotifyContext,
        channel: Channel,
        config: ChannelConfig,
        message: unknown
    ): Promise<SendResult> {
        // Counted when tried: a refused request still counts towards the destination's flood control.
        this.recent.set(channel.id, [...(this.recent.get(channel.id) ?? []), this.pacing.now()]);
        try {
            return await def.send(nctx, config, message);
        } catch (err) {
            return { outcome: 'transient', error: (err as Error).message ?? String(err) };
        }
    }

    /**
     * The messages for a channel's due rows, in order: digests when there are more than DIGEST_THRESHOLD, each test
     * message on its own (it is meant to be seen as it is), else one message per row.
     */
    private plan(def: ChannelDefinition, due: Planned[]): Outgoing[] {
        const out: Outgoing[] = [];
        const digests = def.digests !== false && due.length > DIGEST_THRESHOLD;
        for (let i = 0; i < due.length; ) {
            const firstTest = due.findIndex((p, j) => j >= i && p.row.kind === 'test');
            const run = due.slice(i, firstTest < 0 ? due.length : firstTest);
            if (digests && run.length >= 2) {
                const lines = run.flatMap((p) => p.rows);
                const digest = def.renderDigest(lines);
                // A digest stands for whole planned messages; the rows it leaves out start the next one.
                let covered = 0;
                let taken = 0;
                while (taken < run.length && covered + (run[taken]?.rows.length ?? 0) <= digest.count) {
                    covered += run[taken]?.rows.length ?? 0;
                    taken++;
                }
                taken = Math.max(1, taken);
                const rows = run.slice(0, taken).flatMap((p) => p.rows);
                const message = rows.length === lines.length ? digest.message : def.renderDigest(rows).message;
                out.push({ rows, message, what: `Digest of ${rows.length} notifications` });
                i += taken;
                continue;
            }
            const p = due[i];
            if (!p) break;
            out.push({
                rows: p.rows,
                message: renderRow(def, p, this.ctx.config.publicUrl),
                what: `Notification (${p.row.kind})`,
            });
            i++;
        }
        return out;
    }

    /** Whether the channel may be sent another message now (by the sliding window of `pacing`). */
    private hasBudget(channelId: number, def: ChannelDefinition): boolean {
        const now = this.pacing.now();
        const recent = (this.recent.get(channelId) ?? []).filter((t) => now - t < this.pacing.windowMs);
        if (recent.length === 0) this.recent.delete(channelId);
        else this.recent.set(channelId, recent);
        return recent.length < (this.pacing.limit ?? def.limits.perMinute);
    }

    private async accepted(channel: Channel, out: Outgoing, sent: boolean): Promise<void> {
        await this.ctx.db
            .update(outbox)
            .set({
                status: 'sent',
                sentAt: new Date(this.pacing.now()),
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
            this.ctx.events.emit({
                name: 'NOTIFICATION_SENT',
                channelId: channel.id,
                monitorId: row.monitorId ?? undefined,
            });
        this.log.info(`${out.what} sent to channel "${channel.name}"`);
    }

    private async failed(
        channel: Channel,
        out: Outgoing,
        result: Exclude<SendResult, { outcome: 'accepted' }>
    ): Promise<void> {
        const rows = out.rows;
        // The rows were tried together, so they wait together: one due time keeps them one run next pass.
        const delayMs = retryDelay(result, Math.max(...rows.map((r) => r.attempts)) + 1);
        const permanent = result.outcome === 'permanent';
        const givenUp = permanent ? rows.filter((r) => r.attempts + 1 >= PERMANENT_ATTEMPTS).length : 0;
        const message = redact(result.error).slice(0, 500);
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

/** A message to send for one row, with the later rows it also stands for (reminders that fell due meanwhile). */
interface Planned {
    row: Row;
    rows: Row[];
    record: NotificationRecord | null;
}

/**
 * Folds each reminder into an earlier due row of the same incident (its alert, or an earlier reminder): reminders
 * that fell due while the destination could not be reached go out as one message saying the incident is still
 * failing, never as a burst.
 */
function collapse(due: Row[]): Planned[] {
    const out: Planned[] = [];
    const openByIncident = new Map<string, Planned>();
    for (const row of due) {
        const payload = parsePayload(row.payload);
        const record = payload && payload.kind !== 'test' && !isDeliveryNotice(payload) ? payload : null;
        const earlier = record ? openByIncident.get(record.incidentId) : undefined;
        if (record && earlier?.record && record.kind === 'reminder') {
            earlier.rows.push(row);
            earlier.record = {
                ...earlier.record,
                stillFailing: { at: record.at, reminders: (earlier.record.stillFailing?.reminders ?? 0) + 1 },
            };
            continue;
        }
        const planned: Planned = { row, rows: [row], record };
        out.push(planned);
        if (record && (record.kind === 'alert' || record.kind === 'reminder' || record.kind === 'flapping'))
            openByIncident.set(record.incidentId, planned);
        else if (record) openByIncident.delete(record.incidentId);
    }
    return out;
}

function renderRow(def: ChannelDefinition, p: Planned, publicUrl: string | null): unknown {
    if (p.record) return def.render(withLink(p.record, publicUrl));
    const payload = parsePayload(p.row.payload);
    // Tests and delivery notices are rendered as they are: they stand for no incident of a monitor.
    if (payload && (payload.kind === 'test' || isDeliveryNotice(payload))) return def.render(payload);
    return def.renderText(p.row.text);
}
