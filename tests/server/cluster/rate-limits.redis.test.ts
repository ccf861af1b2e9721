import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { services } from '../../../server/db/schema';
import { TESTS_PER_MINUTE } from '../../../server/routes/services';
import { auth, login, seedCompany, seedUser } from '../helpers';
import { seedNode } from '../seed';
import { type ClusterApps, clusterApps } from './apps';

/**
 * The per-minute limits of the public status pages, channel tests and service tests count every `web` process's
 * requests together, as the sign-in limit does: spread over two processes, a visitor or a user gets one budget, not
 * two. Redis database 3, emptied first: the counts outlive a run by a minute.
 */
let c: ClusterApps;
let acme: number;

const web = (i: number) => c.web(i);

beforeAll(async () => {
    c = await clusterApps(2, 3, { statusRateLimitPerMinute: 3 });
    acme = await seedCompany(web(0), 'Acme');
    await seedUser(web(0), { username: 'tester', companyId: acme, isAdmin: true });
});
afterAll(() => c?.close());

/** Status codes of `n` requests made by turns through the two processes. */
async function alternating(n: number, request: (app: ReturnType<typeof web>) => Promise<{ statusCode: number }>) {
    const codes: number[] = [];
    for (let i = 0; i < n; i++) codes.push((await request(web(i % 2))).statusCode);
    return codes;
}

it('a visitor gets the status pages’ limit once across processes', async () => {
    const remoteAddress = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.7`;
    const codes = await alternating(5, (app) => app.inject({ url: '/api/public/status/nothing', remoteAddress }));
    expect(codes).toEqual([404, 404, 404, 429, 429]);
});

it('a user gets the channel-test limit once across processes', async () => {
    const { access } = await login(web(0), 'tester');
    const codes = await alternating(7, (app) =>
        app.inject({ method: 'POST', url: '/api/notification-channels/test', headers: auth(access), payload: {} })
    );
    expect(codes.slice(0, 5)).not.toContain(429);
    expect(codes.slice(5)).toEqual([429, 429]);
});

it('a user gets the service-test limit once across processes', async () => {
    const { access } = await login(web(0), 'tester');
    const node = await seedNode(web(0), {
        companyId: acme,
        services: [{ type: 'rpc', address: 'http://127.0.0.1:9' }],
        monitor: { type: 'urlCheck', settings: { url: 'http://127.0.0.1:9' } },
    });
    const [service] = await web(0)
        .ctx.db.select({ id: services.id })
        .from(services)
        .where(eq(services.serverId, node.serverId));
    const codes = await alternating(TESTS_PER_MINUTE + 2, (app) =>
        app.inject({ url: `/api/services/${service?.id}/test`, headers: auth(access) })
    );
    expect(codes.slice(0, TESTS_PER_MINUTE)).not.toContain(429);
    expect(codes.slice(TESTS_PER_MINUTE)).toEqual([429, 429]);
});
