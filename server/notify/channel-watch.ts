import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { companies, notificationChannels, outbox, users } from '../db/schema';
import { channelDeliveries } from '../repositories/channel-delivery';
import { telegramHtml } from './format';
import { deliveryNoticeMessage } from './message';
import { type DeliveryNoticeRecord, isDeliveryNotice, parsePayload } from './record';

/** A channel that has not delivered for this long is told to the super admins. */
export const CHANNEL_FAILING_MS = 15 * 60_000;
const NOTICE_KINDS: DeliveryNoticeRecord['kind'][] = ['channel-failing', 'channel-delivering'];

/** A failure the super admins were told of, until they are told it ended. */
type Episode = Omit<DeliveryNoticeRecord, 'kind' | 'at' | 'ended'>;

/**
 * Tells the super admins when the outbox cannot deliver to a channel: once a channel's oldest undelivered message
 * has waited 15 minutes (the dashboard shows the failing channel at once), one notice goes to every enabled channel
 * of the super admins' companies but the failing one, and one more when it delivers again. Only the super admins'
 * channels are told: the failing channel's own company hears nothing of other companies. A failure is told once:
 * the notices are outbox rows, so a restart reads which failures were told from them.
 */
export class ChannelWatch {
    private told: Map<number, Episode> | null = null;

    constructor(
        /** The channels and the outbox it reads, and where it queues its notices. */
        private readonly ctx: { db: Db },
        private readonly log: FastifyBaseLogger,
        private readonly now: () => number = () => Date.now()
    ) {}

    /** Reads the failures told from the outbox again at the next check (another process may have told some). */
    forget(): void {
        this.told = null;
    }

    /** One look at every channel; queues the notices that are due. */
    async check(): Promise<void> {
        const told = this.told ?? (await this.loadTold());
        this.told = told;
        const db = this.ctx.db;
        const channels = await db
            .select({
                id: notificationChannels.id,
                name: notificationChannels.name,
                type: notificationChannels.type,
                isEnabled: notificationChannels.isEnabled,
                company: { id: companies.id, name: companies.name },
            })
            .from(notificationChannels)
            .innerJoin(companies, eq(companies.id, notificationChannels.companyId))
            .orderBy(asc(notificationChannels.id));
        const deliveries = await channelDeliveries(
            db,
            channels.map((c) => c.id)
        );
        const now = this.now();
        for (const c of channels) {
            const d = deliveries.get(c.id);
            const since = d?.status === 'failing' && d.since ? Date.parse(d.since) : null;
            const episode = told.get(c.id);
            if (!episode && c.isEnabled && since !== null && now - since >= CHANNEL_FAILING_MS) {
                const next: Episode = {
                    incidentId: `channel-${c.id}-${since}`,
                    company: c.company,
                    channel: { id: c.id, name: c.name, type: c.type },
                    since,
                    lastError: d?.last_error ?? null,
                };
                await this.tell({ ...next, kind: 'channel-failing', at: now });
                told.set(c.id, next);
            } else if (episode && (!c.isEnabled || since === null)) {
                const ended = c.isEnabled ? 'delivering' : 'disabled';
                await this.tell({ ...episode, kind: 'channel-delivering', ended, at: now });
                told.delete(c.id);
            }
        }
        for (const [id, episode] of told) {
            if (channels.some((c) => c.id === id)) continue;
            await this.tell({ ...episode, kind: 'channel-delivering', ended: 'deleted', at: now });
            told.delete(id);
        }
    }

    /** The failures told and not yet ended, from the notices in the outbox (once, at the first check). */
    private async loadTold(): Promise<Map<number, Episode>> {
        const rows = await this.ctx.db
            .select({ payload: outbox.payload })
            .from(outbox)
            .where(and(inArray(outbox.kind, NOTICE_KINDS), isNotNull(outbox.payload)))
            .orderBy(asc(outbox.id));
        const told = new Map<number, Episode>();
        for (const row of rows) {
            const r = parsePayload(row.payload);
            if (!r || !isDeliveryNotice(r)) continue;
            if (r.kind === 'channel-failing') {
                const { kind: _k, at: _a, ended: _e, ...episode } = r;
                told.set(r.channel.id, episode);
            } else told.delete(r.channel.id);
        }
        return told;
    }

    /** Queues the notice to every enabled channel of a super admin's company, the failing one excepted. */
    private async tell(notice: DeliveryNoticeRecord): Promise<void> {
        const db = this.ctx.db;
        const admins = await db
            .selectDistinct({ companyId: users.companyId })
            .from(users)
            .where(and(eq(users.isSuperAdmin, true), eq(users.isActive, true), isNotNull(users.companyId)));
        const companyIds = admins.map((a) => a.companyId).filter((id): id is number => id !== null);
        const recipients =
            companyIds.length === 0
                ? []
                : (
                      await db
                          .select({ id: notificationChannels.id })
                          .from(notificationChannels)
                          .where(
                              and(
                                  inArray(notificationChannels.companyId, companyIds),
                                  eq(notificationChannels.isEnabled, true)
                              )
                          )
                  ).filter((r) => r.id !== notice.channel.id);
        const what = `Channel "${notice.channel.name}" of ${notice.company.name}`;
        const state = notice.kind === 'channel-failing' ? 'has not delivered for 15 min' : 'no longer fails';
        if (recipients.length === 0) {
            this.log.warn(`${what} ${state}; no super admin's company has a channel to tell (the dashboard shows it)`);
            return;
        }
        const text = telegramHtml(deliveryNoticeMessage(notice));
        const payload = JSON.stringify(notice);
        await db.insert(outbox).values(recipients.map((r) => ({ channelId: r.id, kind: notice.kind, text, payload })));
        this.log.warn(`${what} ${state}: told ${recipients.length} super admin channel(s)`);
    }
}
