import type { LightMyRequestResponse } from 'fastify';
import type { AppEvent } from '../../server/events';
import type { TestApp, Tokens } from './helpers';
import { auth, createTestApp, login, seedCompany, seedUser } from './helpers';

/**
 * Two companies (A = Acme, B = Globex), a super admin, an admin and a read-only user of A and an admin of B, a
 * recorder of internal events, and shortcuts to create rows through the API.
 */
export interface World {
    t: TestApp;
    acme: number;
    globex: number;
    root: Tokens;
    admin: Tokens;
    plain: Tokens;
    other: Tokens;
    events: AppEvent[];
    call(
        method: 'GET' | 'POST' | 'PUT' | 'DELETE',
        url: string,
        token: string,
        payload?: object
    ): Promise<LightMyRequestResponse>;
    configuration(token: string, body?: object): Promise<number>;
    server(token: string, configurationId: number, body?: object): Promise<number>;
    audit(): Promise<
        {
            message: string;
            companyId: number | null;
            configurationId: number | null;
            serverId: number | null;
            monitorId: number | null;
        }[]
    >;
}

export async function createWorld(overrides: Parameters<typeof createTestApp>[0] = {}): Promise<World> {
    const t = await createTestApp(overrides);
    const acme = await seedCompany(t.app, 'Acme');
    const globex = await seedCompany(t.app, 'Globex');
    await seedUser(t.app, { username: 'root', isSuperAdmin: true, isAdmin: true });
    await seedUser(t.app, { username: 'alice', companyId: acme, isAdmin: true });
    await seedUser(t.app, { username: 'bob', companyId: acme });
    await seedUser(t.app, { username: 'gus', companyId: globex, isAdmin: true });
    const events: AppEvent[] = [];
    t.app.ctx.events.subscribe((e) => events.push(e));
    const call: World['call'] = (method, url, token, payload) =>
        t.app.inject({ method, url, headers: auth(token), payload });
    const created = async (res: Awaited<ReturnType<World['call']>>) => {
        if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
        return res.json().id as number;
    };
    return {
        t,
        acme,
        globex,
        root: await login(t.app, 'root'),
        admin: await login(t.app, 'alice'),
        plain: await login(t.app, 'bob'),
        other: await login(t.app, 'gus'),
        events,
        call,
        configuration: async (token, body = {}) =>
            created(await call('POST', '/api/configurations', token, { name: 'Main', chain: 'cosmoshub', ...body })),
        server: async (token, configurationId, body = {}) =>
            created(
                await call('POST', '/api/servers', token, {
                    name: 'node-1',
                    address: 'http://10.0.0.5',
                    configuration_id: configurationId,
                    ...body,
                })
            ),
        audit: async () => {
            const { auditEntries } = await import('../../server/db/schema');
            const rows = await t.app.ctx.db.select().from(auditEntries);
            return rows.map((r) => ({
                message: r.message,
                companyId: r.companyId,
                configurationId: r.configurationId,
                serverId: r.serverId,
                monitorId: r.monitorId,
            }));
        },
    };
}
