import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import {
    type NotificationChannelRow,
    notificationChannels,
    outbox,
    monitors,
    type StatusPageRow,
    statusPageMonitors,
    statusPages,
    statusSubscribers,
} from '../db/schema';
import { badRequest, notFound } from '../errors';
import { validateChannelSettings } from '../notify/channels';
import { utc } from '../../common/duration';
import { fieldErrors } from '../validation/schemas';

/**
 * Visitors subscribed to a page's incidents and maintenance. An email subscription is confirmed through a link
 * first (double opt-in), sent with the company's e-mail channel's SMTP settings; a webhook one is on at once. Each
 * message carries its unsubscribe link. Messages are outbox rows like every other notification: a subscriber is
 * the destination `-id` (channel ids are positive), so retries, pacing and a destination being down work alike.
 */

const MAX_PER_PAGE = 5000;
export const SUBSCRIBER_KIND = 'status';

export const subscribeBody = z
    .strictObject({
        email: z.string({ error: 'email must be a text' }).trim().max(254, 'email is too long').optional(),
        webhook: z.string({ error: 'webhook must be a text' }).trim().max(2000, 'webhook is too long').optional(),
    })
    .refine((b) => Boolean(b.email) !== Boolean(b.webhook), {
        message: 'Give exactly one of email, webhook',
        path: ['email'],
    });

/** The company's first enabled e-mail channel: its SMTP server sends the subscribers' mail. */
async function mailChannel(db: Db, companyId: number): Promise<NotificationChannelRow | null> {
    const [row] = await db
        .select()
        .from(notificationChannels)
        .where(
            and(
                eq(notificationChannels.companyId, companyId),
                eq(notificationChannels.type, 'email'),
                eq(notificationChannels.isEnabled, true)
            )
        )
        .orderBy(asc(notificationChannels.id))
        .limit(1);
    return row ?? null;
}

/** A webhook subscriber's bodies are signed as a webhook channel's are, with a secret only it is told. */
const webhookSecret = (token: string) => createHash('sha256').update(`status-webhook:${token}`).digest('base64url');

const links = (base: string, token: string) => ({
    confirm: `${base}/status/subscriptions/${token}/confirm`,
    unsubscribe: `${base}/status/subscriptions/${token}/unsubscribe`,
});

/** Outbox text is Telegram HTML to the channels (they strip it for their own formats): escape what visitors wrote. */
const html = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function subscribe(
    db: Db,
    page: StatusPageRow,
    input: unknown,
    base: string
): Promise<{ message: string; secret?: string }> {
    const parsed = subscribeBody.safeParse(input);
    if (!parsed.success) throw badRequest(fieldErrors(parsed.error));
    const kind = parsed.data.email ? 'email' : 'webhook';
    const address = (parsed.data.email ?? parsed.data.webhook) as string;
    const check =
        kind === 'email'
            ? validateChannelSettings('email', { host: 'smtp.invalid', from: 'a@b.c', to: address })
            : validateChannelSettings('webhook', { url: address, secret: 'checked-for-its-url-only' });
    if (!check.ok) {
        const why = kind === 'email' ? check.errors.to : (check.errors.url ?? Object.values(check.errors)[0]);
        throw badRequest({ [kind]: why ?? `${kind} is not valid` });
    }
    if (kind === 'email' && !(await mailChannel(db, page.companyId)))
        throw badRequest({ email: 'This page does not take e-mail subscriptions' });
    if ((await db.$count(statusSubscribers, eq(statusSubscribers.pageId, page.id))) >= MAX_PER_PAGE)
        throw badRequest({ [kind]: 'This page takes no more subscribers' });

    const token = randomBytes(24).toString('base64url');
    const [row] = await db
        .insert(statusSubscribers)
        .values({
            pageId: page.id,
            kind,
            address,
            token,
            baseUrl: base,
            confirmedAt: kind === 'webhook' ? new Date() : null,
        })
        .onConflictDoNothing()
        .returning();
    const existing =
        row ??
        (
            await db
                .select()
                .from(statusSubscribers)
                .where(
                    and(
                        eq(statusSubscribers.pageId, page.id),
                        eq(statusSubscribers.kind, kind),
                        eq(statusSubscribers.address, address)
                    )
                )
        )[0];
    // Subscribing again answers alike, whether or not the address was on the list: nobody learns who subscribed.
    if (existing && kind === 'email' && !existing.confirmedAt) {
        const l = links(existing.baseUrl, existing.token);
        await enqueue(
            db,
            [existing.id],
            [
                `Confirm your subscription to ${html(page.title)}`,
                `Open this link to get a message when ${html(page.title)} has an incident or maintenance: ${l.confirm}`,
                `If you did not ask for this, ignore this message.`,
            ]
        );
    }
    if (kind === 'email')
        return { message: 'Check your inbox: the subscription starts once you open the link we sent' };
    // Told to whoever subscribes the URL (again): the signature proves a body came from here, not who subscribed.
    return {
        message: 'Subscribed: the webhook gets a message for each incident and maintenance, signed with this secret',
        secret: webhookSecret(existing?.token ?? token),
    };
}

/** The subscription a link names; 404 for a token that names none (ended, or never was). */
export async function byToken(db: Db, token: string) {
    if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) throw notFound('Subscription');
    const [row] = await db.select().from(statusSubscribers).where(eq(statusSubscribers.token, token));
    if (!row) throw notFound('Subscription');
    return row;
}

export async function confirmSubscription(db: Db, token: string): Promise<void> {
    const row = await byToken(db, token);
    if (!row.confirmedAt)
        await db.update(statusSubscribers).set({ confirmedAt: new Date() }).where(eq(statusSubscribers.id, row.id));
}

export async function unsubscribe(db: Db, token: string): Promise<void> {
    const row = await byToken(db, token);
    await db.delete(statusSubscribers).where(eq(statusSubscribers.id, row.id));
}

async function enqueue(db: Db, subscriberIds: number[], lines: string[]): Promise<void> {
    if (subscriberIds.length === 0) return;
    await db
        .insert(outbox)
        .values(subscriberIds.map((id) => ({ channelId: -id, kind: SUBSCRIBER_KIND, text: lines.join('\n') })));
}

/** A message for one page's subscribers; `component` is the monitor's name as that page shows it. */
export type SubscriberNotice = (page: { title: string; component: string | null }) => { subject: string; body: string };

/**
 * Tells the confirmed subscribers of every page showing one of `monitorIds` what happened, once per subscriber, in
 * the caller's transaction: the message is queued with the change or not at all.
 */
export async function noticeSubscribers(db: Db, monitorIds: number[], notice: SubscriberNotice): Promise<void> {
    if (monitorIds.length === 0) return;
    const rows = await db
        .select({
            sub: statusSubscribers,
            title: statusPages.title,
            slug: statusPages.slug,
            displayName: statusPageMonitors.displayName,
            monitorName: monitors.name,
        })
        .from(statusPageMonitors)
        .innerJoin(statusPages, eq(statusPages.id, statusPageMonitors.pageId))
        .innerJoin(statusSubscribers, eq(statusSubscribers.pageId, statusPages.id))
        .leftJoin(monitors, eq(monitors.id, statusPageMonitors.monitorId))
        .where(and(inArray(statusPageMonitors.monitorId, monitorIds), isNotNull(statusSubscribers.confirmedAt)))
        .orderBy(asc(statusSubscribers.id), asc(statusPageMonitors.position));
    const once = rows.filter((r, i) => rows[i - 1]?.sub.id !== r.sub.id);
    if (once.length === 0) return;
    await db.insert(outbox).values(
        once.map(({ sub, title, slug, displayName, monitorName }) => {
            const { subject, body } = notice({ title, component: displayName || monitorName });
            return {
                channelId: -sub.id,
                kind: SUBSCRIBER_KIND,
                text: [
                    html(subject),
                    html(body),
                    `Status: ${sub.baseUrl}/status/${slug}`,
                    `Unsubscribe: ${links(sub.baseUrl, sub.token).unsubscribe}`,
                ].join('\n'),
            };
        })
    );
}

/** Maintenance planned for a configuration or a server: the pages showing its monitors announce it. */
export async function noticeMaintenance(
    db: Db,
    target: { configurationId: number | null; serverId: number | null },
    window: { startsAt: Date; endsAt: Date; reason: string }
): Promise<void> {
    const covered = await db
        .select({ id: monitors.id })
        .from(monitors)
        .where(
            target.serverId !== null
                ? eq(monitors.serverId, target.serverId)
                : eq(monitors.configurationId, target.configurationId ?? 0)
        );
    await noticeSubscribers(
        db,
        covered.map((m) => m.id),
        ({ title }) => ({
            subject: `${title}: maintenance planned`,
            body: `Maintenance from ${utc(window.startsAt.getTime())} to ${utc(window.endsAt.getTime())}: ${window.reason}`,
        })
    );
}

/**
 * The destinations of subscriber rows (`channelId` = −subscriber id) as channel rows the outbox sends with: an e-mail
 * subscriber is the company's e-mail channel addressed to them alone, a webhook one a webhook channel of its URL. A
 * subscriber gone (unsubscribed, page deleted) or whose company has no e-mail channel any more is left out, and its
 * rows fail as a deleted channel's do.
 */
export async function subscriberChannels(db: Db, channelIds: number[]): Promise<NotificationChannelRow[]> {
    const ids = channelIds.filter((id) => id < 0).map((id) => -id);
    if (ids.length === 0) return [];
    const subs = await db
        .select({ sub: statusSubscribers, companyId: statusPages.companyId })
        .from(statusSubscribers)
        .innerJoin(statusPages, eq(statusPages.id, statusSubscribers.pageId))
        .where(inArray(statusSubscribers.id, ids));
    const mail = new Map<number, NotificationChannelRow | null>();
    const out: NotificationChannelRow[] = [];
    for (const { sub, companyId } of subs) {
        const base = {
            id: -sub.id,
            companyId,
            name: `status page subscriber ${sub.id}`,
            isEnabled: true,
            createdAt: sub.createdAt,
            updatedAt: sub.createdAt,
        };
        if (sub.kind === 'webhook') {
            const config = { url: sub.address, secret: webhookSecret(sub.token) };
            out.push({ ...base, type: 'webhook', configurationObject: JSON.stringify(config) });
            continue;
        }
        if (!mail.has(companyId)) mail.set(companyId, await mailChannel(db, companyId));
        const channel = mail.get(companyId);
        if (!channel) continue;
        const config = JSON.parse(channel.configurationObject) as Record<string, unknown>;
        out.push({ ...channel, ...base, configurationObject: JSON.stringify({ ...config, to: sub.address }) });
    }
    return out;
}

export async function listSubscribers(db: Db, pageId: number) {
    const rows = await db
        .select()
        .from(statusSubscribers)
        .where(eq(statusSubscribers.pageId, pageId))
        .orderBy(asc(statusSubscribers.id));
    return rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        address: r.address,
        confirmed: r.confirmedAt !== null,
        created_at: r.createdAt.toISOString(),
    }));
}

export async function removeSubscriber(db: Db, pageId: number, id: number): Promise<void> {
    const [row] = await db
        .delete(statusSubscribers)
        .where(and(eq(statusSubscribers.pageId, pageId), eq(statusSubscribers.id, id)))
        .returning({ id: statusSubscribers.id });
    if (!row) throw notFound('Subscriber');
}
