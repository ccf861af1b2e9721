import { eq } from 'drizzle-orm';
import { decryptSecret } from '../../../server/auth/secrets';
import { sealStoredCredentials } from '../../../server/db/seal-credentials';
import { servers, services } from '../../../server/db/schema';
import { createWorld, type World } from '../config-fixtures';
import { auth } from '../helpers';

/** `user:pass@` in server and service addresses: sealed at rest, masked on every read, however it is spelled. */
let w: World;
let configuration: number;
const SECRET = 'hunter2-secret';

beforeAll(async () => {
    w = await createWorld();
    configuration = await w.configuration(w.admin.access, { name: 'Hub' });
});
afterAll(() => w.t.close());

const serverRow = async (id: number) => (await w.t.app.ctx.db.select().from(servers).where(eq(servers.id, id)))[0];
const key = () => w.t.app.ctx.keys.secretsAtRest;

/** Every read a plain user, an admin and an export make of the company's rows. */
async function everyRead(serverId: number): Promise<string> {
    const bodies: string[] = [];
    for (const token of [w.plain.access, w.admin.access]) {
        for (const url of [
            '/api/servers',
            `/api/servers/${serverId}`,
            `/api/servers/${serverId}/services`,
            `/api/configurations/${configuration}`,
            '/api/configurations',
            '/api/monitors',
            '/api/export',
            '/api/export?format=json',
        ]) {
            const res = await w.call('GET', url, token);
            expect(res.statusCode, url).toBe(200);
            bodies.push(res.body);
        }
    }
    return bodies.join('\n') + w.t.logs.join('');
}

describe('a password in a server address', () => {
    let id: number;

    it('is sealed at rest and masked on every read', async () => {
        const made = await w.call('POST', '/api/servers', w.admin.access, {
            name: 'node-1',
            address: `http://ops:${SECRET}@10.0.0.5:26657`,
            configuration_id: configuration,
        });
        expect(made.statusCode, made.body).toBe(201);
        id = made.json().id;
        expect(made.json().address).toBe('http://ops:••••@10.0.0.5:26657');
        const row = await serverRow(id);
        expect(row?.address).toBe('http://ops:••••@10.0.0.5:26657');
        expect(row?.addressSecret).not.toContain(SECRET);
        expect(decryptSecret(key(), row?.addressSecret ?? '')).toBe(`http://ops:${SECRET}@10.0.0.5:26657`);
        expect(await everyRead(id)).not.toContain(SECRET);
    });

    it('a mask sent back keeps it; a mask for another host is refused, naming address', async () => {
        const kept = await w.call('PUT', `/api/servers/${id}`, w.admin.access, {
            name: 'node-1',
            address: 'http://ops:••••@10.0.0.5:26657',
            configuration_id: configuration,
        });
        expect(kept.statusCode, kept.body).toBe(200);
        expect(decryptSecret(key(), (await serverRow(id))?.addressSecret ?? '')).toContain(SECRET);
        const moved = await w.call('PUT', `/api/servers/${id}`, w.admin.access, {
            name: 'node-1',
            address: 'http://ops:••••@10.0.0.6:26657',
            configuration_id: configuration,
        });
        expect(moved.statusCode).toBe(400);
        expect(Object.keys(moved.json().errors)).toEqual(['address']);
    });

    it('saved in clear before, it is sealed at the next start', async () => {
        const [row] = await w.t.app.ctx.db
            .insert(servers)
            .values({ configurationId: configuration, name: 'old', address: `http://ops:${SECRET}@10.0.0.7` })
            .returning();
        expect(await sealStoredCredentials(w.t.app.ctx.db, key())).toBe(1);
        const after = await serverRow(row?.id ?? 0);
        expect(after?.address).toBe('http://ops:••••@10.0.0.7');
        expect(decryptSecret(key(), after?.addressSecret ?? '')).toBe(`http://ops:${SECRET}@10.0.0.7`);
    });

    it('an import seals it too, and re-importing the export changes nothing', async () => {
        const doc = {
            version: 1,
            configurations: [
                {
                    name: 'Imported',
                    chain: 'cosmoshub',
                    servers: [{ name: 'node-9', address: `http://ops:${SECRET}@10.0.0.9:26657` }],
                },
            ],
        };
        const applied = await w.call('POST', '/api/import?dry_run=false', w.admin.access, doc);
        expect(applied.statusCode, applied.body).toBe(200);
        expect(applied.body).not.toContain(SECRET);
        const [row] = await w.t.app.ctx.db.select().from(servers).where(eq(servers.name, 'node-9'));
        expect(row?.address).toBe('http://ops:••••@10.0.0.9:26657');
        expect(decryptSecret(key(), row?.addressSecret ?? '')).toContain(SECRET);
        const exported = await w.t.app.inject({ url: '/api/export?format=json', headers: auth(w.admin.access) });
        expect(exported.body).not.toContain(SECRET);
        const again = await w.call('POST', '/api/import?dry_run=true', w.admin.access, exported.json());
        expect(again.statusCode, again.body).toBe(200);
        const plan = again.json() as { items: { kind: string; name: string; action: string }[] };
        expect(plan.items.find((i) => i.kind === 'server' && i.name === 'node-9')?.action).toBe('unchanged');
    });
});

describe('a password in a service address without slashes', () => {
    it.each(['http:ops:SECRET@10.0.0.5:9100', 'http:/ops:SECRET@10.0.0.5:9100', 'http:\\\\ops:SECRET@10.0.0.5:9100'])(
        '%s is sealed and masked',
        async (spelled) => {
            // The import above replaced the company's configurations: this one is new.
            configuration = await w.configuration(w.admin.access, { name: `Hub ${spelled}` });
            const server = await w.server(w.admin.access, configuration);
            const made = await w.call('POST', '/api/services', w.admin.access, {
                name: 'exporter',
                type: 'node_exporter',
                address: spelled.replace('SECRET', SECRET),
                server_id: server,
            });
            expect(made.statusCode, made.body).toBe(201);
            expect(made.body).not.toContain(SECRET);
            const [row] = await w.t.app.ctx.db.select().from(services).where(eq(services.id, made.json().id));
            expect(row?.address).not.toContain(SECRET);
            expect(decryptSecret(key(), row?.addressSecret ?? '')).toContain(SECRET);
            expect(await everyRead(server)).not.toContain(SECRET);
        }
    );
});

describe("a service added with its server's masked address", () => {
    it("keeps the server's password for the same user and host on the service's own port", async () => {
        configuration = await w.configuration(w.admin.access, { name: 'Hub lent' });
        const made = await w.call('POST', '/api/servers', w.admin.access, {
            name: 'node-lent',
            address: `http://ops:${SECRET}@10.0.0.7`,
            configuration_id: configuration,
        });
        expect(made.statusCode, made.body).toBe(201);
        // What the Add Service dialog proposes: the server's address as read (masked) with the type's port.
        const service = await w.call('POST', '/api/services', w.admin.access, {
            name: 'rpc',
            type: 'rpc',
            address: 'http://ops:••••@10.0.0.7:26657',
            server_id: made.json().id,
        });
        expect(service.statusCode, service.body).toBe(201);
        expect(service.json().address).toBe('http://ops:••••@10.0.0.7:26657');
        const [row] = await w.t.app.ctx.db.select().from(services).where(eq(services.id, service.json().id));
        expect(decryptSecret(key(), row?.addressSecret ?? '')).toBe(`http://ops:${SECRET}@10.0.0.7:26657`);
    });

    it.each([
        ['another host', 'http://ops:••••@10.0.0.8:26657'],
        ['another user', 'http://root:••••@10.0.0.7:26657'],
        ['another scheme', 'https://ops:••••@10.0.0.7:26657'],
    ])('refuses the mask for %s, naming the address', async (_, address) => {
        const server = (await w.call('GET', '/api/servers', w.admin.access)).json() as { id: number; name: string }[];
        const lent = server.find((s) => s.name === 'node-lent');
        const res = await w.call('POST', '/api/services', w.admin.access, {
            name: 'rpc-2',
            type: 'rpc',
            address,
            server_id: lent?.id,
        });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().errors.address).toMatch(/Enter the password again/);
    });
});
