import { encryptSecret } from '../../../server/auth/secrets';
import { notificationChannels, outbox } from '../../../server/db/schema';
import { ChannelWatch } from '../../../server/notify/channel-watch';
import { CHANNELS } from '../../../server/notify/channels';
import { OutboxDispatcher } from '../../../server/notify/outbox';
import type { DeliveryNoticeRecord } from '../../../server/notify/record';
import { type Receiver, startReceiver } from '../../support/fake-receivers';
import { createTestApp, seedCompany, seedUser, type TestApp } from '../helpers';

/**
 * When the outbox cannot deliver to a channel for 15 minutes, the super admins' channels and the dashboard say so.
 * A tenant's webhook refuses; the test clock moves the outbox and the watch on by minutes.
 */

let t: TestApp;
let hooks: Receiver;
/** What the tenant's failing webhook answers. */
let tenantStatus = 500;
let clock = Date.now();
let outboxOf: OutboxDispatcher;
let watch: ChannelWatch;
let failing: number;

const MIN = 60_000;

async function webhook(companyId: number, name: string, path: string): Promise<number> {
    const secret = encryptSecret(t.app.ctx.keys.secretsAtRest, 'webhook-secret');
    const [ch] = await t.app.ctx.db
        .insert(notificationChannels)
        .values({
            companyId,
            name,
            type: 'webhook',
            configurationObject: JSON.stringify({ url: `${hooks.url}${path}`, secret }),
        })
        .returning();
    if (!ch) throw new Error('no channel');
    return ch.id;
}

/** The bodies a path received, by webhook `kind`. */
const kindsAt = (path: string) =>
    hooks.received.filter((r) => r.path === path).map((r) => (r.json as { kind: string }).kind);

/** Minutes later: the outbox tries what is due, the watch looks, and the outbox sends what the watch queued. */
async function minutesLater(minutes: number, watcher = watch) {
    clock += minutes * MIN;
    await outboxOf.deliverDue();
    await watcher.check();
    await outboxOf.deliverDue();
}

beforeAll(async () => {
    hooks = await startReceiver({ status: 200 });
    hooks.reply = (r) => (r.path === '/tenant' ? { status: tenantStatus, body: 'upstream broken' } : undefined);
    t = await createTestApp();
    const ops = await seedCompany(t.app, 'Ops Co');
    const tenant = await seedCompany(t.app, 'Tenant Co');
    await seedUser(t.app, { username: 'root', companyId: ops, isSuperAdmin: true, isAdmin: true });
    await seedUser(t.app, { username: 'tina', companyId: tenant, isAdmin: true });
    await webhook(ops, 'Ops hook', '/ops');
    failing = await webhook(tenant, 'Tenant hook', '/tenant');
    await webhook(tenant, 'Tenant other', '/tenant-other');
    outboxOf = new OutboxDispatcher(t.app.ctx, t.app.log, 100, { now: () => clock });
    watch = new ChannelWatch(t.app.ctx, t.app.log, () => clock);
});
afterAll(async () => {
    await outboxOf?.stop();
    await t?.close();
    await hooks?.close();
});

describe('a channel that cannot deliver for 15 minutes', () => {
    it('is told once to the super admins’ channels, and once more when it delivers again', async () => {
        await t.app.ctx.db
            .insert(outbox)
            .values({ channelId: failing, kind: 'alert', text: 'Block production halted' });
        await minutesLater(0);
        await minutesLater(5);
        await minutesLater(5);
        expect(kindsAt('/ops')).toEqual([]);

        await minutesLater(6);
        expect(kindsAt('/ops')).toEqual(['channel_failing']);
        const notice = hooks.received.find((r) => r.path === '/ops')?.json as {
            message: string;
            channel: unknown;
            since: string;
        };
        expect(notice.channel).toEqual({
            id: failing,
            name: 'Tenant hook',
            type: 'webhook',
            company: { id: expect.any(Number), name: 'Tenant Co' },
        });
        expect(notice.message).toContain('Company: Tenant Co');
        expect(notice.message).toContain('Channel: Tenant hook (webhook)');
        expect(notice.message).toContain('Last error: The webhook answered HTTP 500');
        expect(notice.message).not.toContain('upstream broken');
        expect(notice.message).toContain('Not delivering since: ');
        expect(notice.message).not.toContain('webhook-secret');

        // Not every minute, and not again after a restart (a new watch reads what was told from the outbox).
        await minutesLater(1);
        await minutesLater(1, new ChannelWatch(t.app.ctx, t.app.log, () => clock));
        await minutesLater(10);
        expect(kindsAt('/ops')).toEqual(['channel_failing']);

        tenantStatus = 200;
        await minutesLater(11);
        await minutesLater(1);
        await minutesLater(1);
        expect(kindsAt('/ops')).toEqual(['channel_failing', 'channel_delivering']);
        // The tenant is told nothing: neither on its other channel nor on the failing one.
        expect(kindsAt('/tenant-other')).toEqual([]);
        expect(new Set(kindsAt('/tenant'))).toEqual(new Set(['alert']));
    });
});

describe('a delivery notice', () => {
    const notice: DeliveryNoticeRecord = {
        kind: 'channel-failing',
        incidentId: 'channel-3-1',
        company: { id: 2, name: 'Tenant <Co>' },
        channel: { id: 3, name: 'Tenant hook', type: 'telegram' },
        since: Date.parse('2026-11-24T06:00:00Z'),
        lastError: 'Forbidden: bot was blocked by the user',
        at: Date.parse('2026-11-24T06:16:00Z'),
    };

    it.each(Object.keys(CHANNELS) as (keyof typeof CHANNELS)[])(
        'renders through %s naming company, channel, type, since and error',
        (type) => {
            const rendered = JSON.stringify(CHANNELS[type].render(notice));
            for (const part of ['Tenant', 'Tenant hook', 'telegram', 'Forbidden: bot was blocked by the user'])
                expect(rendered).toContain(part);
            expect(rendered).toMatch(/2026-11-24 06:00:00 UTC|2026-11-24T06:00:00.000Z/);
            expect(
                CHANNELS[type].render({ ...notice, kind: 'channel-delivering', ended: 'delivering' })
            ).not.toBeNull();
        }
    );
});
