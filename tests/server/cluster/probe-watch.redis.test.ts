import { beat } from '../../../server/db/presence';
import { and, asc, inArray, like } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { redisConnection } from '../../../server/db/redis';
import {
    configurationChannels,
    configurations,
    monitors,
    notificationChannels,
    outbox,
} from '../../../server/db/schema';
import type { Sighting } from '../../../server/engine/probe-health';
import { recordSightings } from '../../../server/engine/probe-health-store';
import { ProbeWatch } from '../../../server/engine/probe-watch';
import { parsePayload, type ProbeNoticeRecord } from '../../../server/notify/record';
import { createTestApp, seedCompany, type TestApp } from '../helpers';

/**
 * The watch of the probes' own networks and liveness, on Redis and the database, looked at by hand with a test clock:
 * who is told what, once, and by the next holder of the cluster-wide duties no second time. Company Acme has two
 * configurations sharing one channel (and a second channel on one of them); company Other has one of each.
 */
const REDIS_URL = `${process.env.REDIS_BASE_URL ?? 'redis://127.0.0.1:6379'}/${process.env.REDIS_DB ?? 10}`;
const MIN = 60_000;
let t: TestApp;
let redis: Redis;
let clock = Date.UTC(2026, 10, 27, 22, 0, 0);
const ids = { acme: [] as number[], other: [] as number[] };
const channels = { acme: 0, acmeHub: 0, other: 0 };

const watch = () => new ProbeWatch({ db: t.app.ctx.db, redis }, t.app.log, () => clock);
/** A probe of each location saying it is alive, as ProbeServer does. */
const alive = async (...locations: string[]) => {
    for (const l of locations) await beat(redis, INDEX, `node-monitor:locations:${l}:test`, '1', 60_000);
};
/** Its liveness key expired. */
const dead = (location: string) => redis.del(`node-monitor:locations:${location}:test`);
const INDEX = 'node-monitor:locations:index';
/**
 * A company's monitors seen from fra-1 and sgp-1, in order, fra-1 as `fra` says (the last entry for the rest) and
 * sgp-1 as agrees with it.
 */
const sight = async (company: 'acme' | 'other', ...fra: Sighting[]) => {
    const companyId = companyIds[company === 'acme' ? 0 : 1] as number;
    for (const [i, id] of ids[company].entries()) {
        const f = fra[Math.min(i, fra.length - 1)] as Sighting;
        const sgp: Sighting = f === 'shared' ? 'shared' : 'up';
        const sightings = [
            { location: 'fra-1', sighting: f },
            { location: 'sgp-1', sighting: sgp },
        ];
        await recordSightings(redis, { id, companyId }, sightings, 15_000, clock);
    }
};
const companyIds: number[] = [];

/** The probe notices queued, as channel id → the records. */
async function notices(): Promise<{ channelId: number; record: ProbeNoticeRecord }[]> {
    const rows = await t.app.ctx.db
        .select({ channelId: outbox.channelId, payload: outbox.payload })
        .from(outbox)
        .where(like(outbox.kind, 'probe-%'))
        .orderBy(asc(outbox.id));
    return rows.map((r) => ({ channelId: r.channelId, record: parsePayload(r.payload) as ProbeNoticeRecord }));
}

beforeAll(async () => {
    t = await createTestApp();
    redis = new Redis(redisConnection(REDIS_URL));
    await redis.flushdb();
    const db = t.app.ctx.db;
    for (const [name, key] of [
        ['Acme', 'acme'],
        ['Other', 'other'],
    ] as const) {
        const companyId = await seedCompany(t.app, name);
        companyIds.push(companyId);
        const [channel] = await db
            .insert(notificationChannels)
            .values({
                companyId,
                name: `${name} chat`,
                type: 'webhook',
                configurationObject: '{"url":"http://127.0.0.1:9"}',
            })
            .returning();
        channels[key] = channel?.id ?? 0;
        const chains = key === 'acme' ? ['cosmoshub', 'osmosis'] : ['cosmoshub'];
        for (const chain of chains) {
            const [cfg] = await db.insert(configurations).values({ companyId, name: chain, chain }).returning();
            const configurationId = cfg?.id ?? 0;
            await db.insert(configurationChannels).values({ configurationId, notificationChannelId: channels[key] });
            const rows = await db
                .insert(monitors)
                .values(
                    [1, 2].map((i) => ({
                        configurationId,
                        name: `${chain}-${i}`,
                        type: 'blockCheck' as const,
                        locations: key === 'acme' && chain === 'osmosis' && i === 1 ? ['local', 'ams-1'] : null,
                    }))
                )
                .returning({ id: monitors.id });
            ids[key].push(...rows.map((r) => r.id));
        }
    }
    // Acme's hub configuration has a second channel: Acme's notices go to both, once each.
    const [hub] = await db
        .insert(notificationChannels)
        .values({
            companyId: companyIds[0] as number,
            name: 'Acme hub pager',
            type: 'webhook',
            configurationObject: '{"url":"http://127.0.0.1:9"}',
        })
        .returning();
    channels.acmeHub = hub?.id ?? 0;
    const [firstCfg] = await db
        .select({ id: configurations.id })
        .from(configurations)
        .where(inArray(configurations.companyId, [companyIds[0] as number]))
        .orderBy(asc(configurations.id));
    await db
        .insert(configurationChannels)
        .values({ configurationId: firstCfg?.id ?? 0, notificationChannelId: hub?.id ?? 0 });
});
afterAll(async () => {
    await redis?.flushdb();
    redis?.disconnect();
    await t?.close();
});

describe('the watch of the probes', () => {
    it('says nothing while every location reads alike', async () => {
        await alive('local', 'fra-1', 'sgp-1');
        await sight('acme', 'up');
        await sight('other', 'up');
        await watch().look();
        expect(await notices()).toEqual([]);
    });

    it('tells each company once, on each of its channels, how many of its own targets failed from the probe only', async () => {
        clock += MIN;
        await sight('acme', 'alone', 'alone', 'alone', 'up');
        await sight('other', 'alone');
        const w = watch();
        await w.look();
        // Found once: not yet told, a blip of one look is no lost network.
        expect(await notices()).toEqual([]);
        await w.look();
        // The next holder of the cluster-wide duties reads what was told from Redis: no second notice.
        await watch().look();
        const told = await notices();
        expect(told.map((n) => n.channelId).sort()).toEqual([channels.acme, channels.acmeHub, channels.other].sort());
        const of = (channelId: number) => told.find((n) => n.channelId === channelId)?.record;
        expect(of(channels.acme)).toMatchObject({
            kind: 'probe-cut',
            location: 'fra-1',
            company: { id: companyIds[0], name: 'Acme' },
            failing: 3,
            checked: 4,
            since: clock,
        });
        expect(of(channels.other)).toMatchObject({
            kind: 'probe-cut',
            company: { name: 'Other' },
            failing: 2,
            checked: 2,
        });
        expect(await redis.hkeys('node-monitor:probe-health:cut')).toEqual(['fra-1']);
    });

    it('tells the same channels once when the probe sees its targets up again', async () => {
        const cutAt = clock;
        clock += 5 * MIN;
        await sight('acme', 'up');
        await sight('other', 'up');
        await watch().look();
        await watch().look();
        const back = (await notices()).filter((n) => n.record.kind === 'probe-back');
        expect(back.map((n) => n.channelId).sort()).toEqual([channels.acme, channels.acmeHub, channels.other].sort());
        expect(back[0]?.record).toMatchObject({ since: cutAt, at: clock });
        expect(await redis.hkeys('node-monitor:probe-health:cut')).toEqual([]);
    });

    it('names a probe that stopped reporting to the companies checking from it, and says when it reports again', async () => {
        clock += MIN;
        await dead('sgp-1');
        await watch().look();
        await watch().look();
        const silent = (await notices()).filter((n) => n.record.kind === 'probe-silent');
        expect(silent.map((n) => n.channelId).sort()).toEqual([channels.acme, channels.acmeHub, channels.other].sort());
        expect(silent.find((n) => n.channelId === channels.acme)?.record).toMatchObject({
            location: 'sgp-1',
            monitors: 4,
        });
        await alive('sgp-1');
        clock += MIN;
        await watch().look();
        const again = (await notices()).filter((n) => n.record.kind === 'probe-reporting');
        expect(again).toHaveLength(3);
    });

    it('does not report a location nobody checks from, or one named that never ran', async () => {
        // ams-1 is named by one of Acme's monitors but was never alive; old-1 ran once and nobody uses it.
        await alive('old-1');
        await watch().look();
        await dead('old-1');
        const before = (await notices()).length;
        await watch().look();
        expect((await notices()).length).toBe(before);
        expect(
            await t.app.ctx.db
                .select({ id: outbox.id })
                .from(outbox)
                .where(and(like(outbox.kind, 'probe-%'), like(outbox.text, '%ams-1%')))
        ).toEqual([]);
    });
});
