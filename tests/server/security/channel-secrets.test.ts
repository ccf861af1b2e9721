import { eq } from 'drizzle-orm';
import { notificationChannels } from '../../../server/db/schema';
import { type FakeSmtp, type Receiver, startReceiver, startSmtp } from '../../support/fake-receivers';
import { createWorld, type World } from '../config-fixtures';
import { sealStoredCredentials } from '../../../server/db/seal-credentials';
import { auth, login, seedUser } from '../helpers';

/**
 * A webhook's header values are secrets like its signing secret (sealed at rest, masked on every read, a mask
 * sent back keeps them), and no stored secret follows a channel to a new destination.
 */
let w: World;
let hook: Receiver;
let smtp: FakeSmtp;
const BEARER = 'Bearer sk-live-0123456789abcdef';

beforeAll(async () => {
    hook = await startReceiver({ status: 200, body: 'ok' });
    smtp = await startSmtp();
    w = await createWorld();
});
afterAll(async () => {
    await w.t.close();
    await hook.close();
    await smtp.close();
});

const webhook = (url: string, extra: object = {}) => ({
    name: 'hook',
    type: 'webhook',
    is_enabled: true,
    configuration_object: { url, secret: 'whsec-original-1', headers: { Authorization: BEARER }, ...extra },
});
const stored = async (id: number) =>
    (await w.t.app.ctx.db.select().from(notificationChannels).where(eq(notificationChannels.id, id)))[0]
        ?.configurationObject ?? '';

/** What a form sends back: the fields it read, less the read-only ones. */
const echo = (
    read: { name: string; type: string; is_enabled: boolean; configuration_object: string },
    settings?: object
) => ({
    name: read.name,
    type: read.type,
    is_enabled: read.is_enabled,
    configuration_object: settings ?? read.configuration_object,
});

let testers = 0;
async function tester(): Promise<string> {
    const username = `tester${++testers}`;
    await seedUser(w.t.app, { username, companyId: w.acme, isAdmin: true });
    return (await login(w.t.app, username)).access;
}

describe('webhook headers', () => {
    let id: number;

    it('are sealed at rest and masked in lists and details, for admins, plain users and read tokens', async () => {
        const made = await w.call('POST', '/api/notification-channels', w.admin.access, webhook(`${hook.url}/in`));
        expect(made.statusCode, made.body).toBe(201);
        id = made.json().id;
        expect(await stored(id)).not.toContain('sk-live');
        const read = await w.call('POST', '/api/tokens', w.plain.access, { name: 'r', scope: 'read' });
        for (const token of [w.admin.access, w.plain.access, read.json().token]) {
            for (const url of ['/api/notification-channels', `/api/notification-channels/${id}`]) {
                const res = await w.call('GET', url, token);
                expect(res.statusCode).toBe(200);
                expect(res.body).not.toContain('sk-live');
                expect(res.body).not.toContain('0123456789ab');
            }
        }
        const shown = JSON.parse(
            (await w.call('GET', `/api/notification-channels/${id}`, w.plain.access)).json().configuration_object
        );
        expect(shown.headers).toEqual({ Authorization: '••••cdef' });
        const exported = await w.t.app.inject({ url: '/api/export', headers: auth(w.admin.access) });
        expect(exported.body).not.toContain('sk-live');
    });

    it('are sent in clear, and a mask sent back keeps the stored value', async () => {
        const read = (await w.call('GET', `/api/notification-channels/${id}`, w.admin.access)).json();
        const put = await w.call('PUT', `/api/notification-channels/${id}`, w.admin.access, echo(read));
        expect(put.statusCode, put.body).toBe(200);
        const before = hook.received.length;
        const res = await w.call('POST', '/api/notification-channels/test', await tester(), {
            id,
            name: 'hook',
            type: 'webhook',
            configuration_object: read.configuration_object,
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(hook.received.length).toBe(before + 1);
        expect(hook.received.at(-1)?.headers.authorization).toBe(BEARER);
    });

    it('a masked header with no saved value is refused, naming headers', async () => {
        const res = await w.call('POST', '/api/notification-channels', w.admin.access, {
            ...webhook(`${hook.url}/in`),
            configuration_object: { url: `${hook.url}/in`, secret: 'whsec-2', headers: { 'X-Key': '••••abcd' } },
        });
        expect(res.statusCode).toBe(400);
        expect(Object.keys(res.json().errors)).toEqual(['headers']);
    });

    it('saved in clear before, they are masked on read and sealed at the next start', async () => {
        const raw = JSON.stringify({
            url: `${hook.url}/in`,
            secret: 'whsec-3',
            headers: { 'X-Api-Key': 'legacy-key-999' },
        });
        const [row] = await w.t.app.ctx.db
            .insert(notificationChannels)
            .values({ companyId: w.acme, name: 'legacy', type: 'webhook', isEnabled: true, configurationObject: raw })
            .returning();
        const got = await w.call('GET', `/api/notification-channels/${row?.id}`, w.plain.access);
        expect(JSON.parse(got.json().configuration_object).headers).toEqual({ 'X-Api-Key': '••••-999' });
        expect(await sealStoredCredentials(w.t.app.ctx.db, w.t.app.ctx.keys.secretsAtRest)).toBe(1);
        expect(await stored(row?.id ?? 0)).not.toContain('legacy-key-999');
        const after = await w.call('GET', `/api/notification-channels/${row?.id}`, w.plain.access);
        expect(JSON.parse(after.json().configuration_object).headers).toEqual({ 'X-Api-Key': '••••-999' });
    });
});

describe('a masked secret and a new destination', () => {
    it('a webhook PUT to a new URL with the masked secret or headers is refused, naming the field', async () => {
        const made = await w.call('POST', '/api/notification-channels', w.admin.access, webhook(`${hook.url}/in`));
        const read = (await w.call('GET', `/api/notification-channels/${made.json().id}`, w.admin.access)).json();
        const settings = JSON.parse(read.configuration_object);
        const moved = { ...settings, url: 'https://attacker.example.com/collect' };
        const put = await w.call('PUT', `/api/notification-channels/${read.id}`, w.admin.access, echo(read, moved));
        expect(put.statusCode).toBe(400);
        expect(Object.keys(put.json().errors).sort()).toEqual(['headers', 'secret']);
        expect(put.json().errors.secret).toMatch(/must be entered again when the destination/);
        // Given again, the move is saved.
        const again = await w.call(
            'PUT',
            `/api/notification-channels/${read.id}`,
            w.admin.access,
            echo(read, { ...moved, secret: 'whsec-new', headers: { Authorization: 'Bearer new' } })
        );
        expect(again.statusCode, again.body).toBe(200);
    });

    it('a webhook test of a saved channel at another URL does not sign with the saved secret', async () => {
        const made = await w.call('POST', '/api/notification-channels', w.admin.access, webhook(`${hook.url}/in`));
        const read = (await w.call('GET', `/api/notification-channels/${made.json().id}`, w.admin.access)).json();
        const before = hook.received.length;
        const res = await w.call('POST', '/api/notification-channels/test', await tester(), {
            id: read.id,
            name: 'hook',
            type: 'webhook',
            configuration_object: { ...JSON.parse(read.configuration_object), url: `${hook.url}/elsewhere` },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toHaveProperty('secret');
        expect(hook.received.length).toBe(before);
    });

    it('an email test with the masked password and another SMTP host does not send the password there', async () => {
        const settings = {
            host: 'smtp.example.com',
            port: 587,
            security: 'none',
            username: 'alerts',
            password: 'smtp-password-secret',
            from: 'alerts@example.com',
            to: 'ops@example.com',
        };
        const made = await w.call('POST', '/api/notification-channels', w.admin.access, {
            name: 'mail',
            type: 'email',
            is_enabled: true,
            configuration_object: settings,
        });
        expect(made.statusCode, made.body).toBe(201);
        const read = (await w.call('GET', `/api/notification-channels/${made.json().id}`, w.admin.access)).json();
        const res = await w.call('POST', '/api/notification-channels/test', await tester(), {
            id: read.id,
            name: 'mail',
            type: 'email',
            configuration_object: { ...JSON.parse(read.configuration_object), host: '127.0.0.1', port: smtp.port },
        });
        expect(res.statusCode).toBe(400);
        expect(Object.keys(res.json().errors)).toEqual(['password']);
        expect(smtp.logins).toEqual([]);
        // The same destination still reuses it (the mask means keep).
        const put = await w.call('PUT', `/api/notification-channels/${read.id}`, w.admin.access, echo(read));
        expect(put.statusCode, put.body).toBe(200);
    });
});
