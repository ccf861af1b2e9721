import { parse, stringify } from 'yaml';
import { configurations } from '../../server/db/schema';
import { createWorld, type World } from './config-fixtures';
import { auth } from './helpers';

/**
 * A configuration's `chain_endpoints`: RPC/REST endpoints the validator-duty monitors may read the chain through.
 * They pass the rules of a service address, refusals name `chain_endpoints`, and every read is the caller's company's.
 */
let w: World;
beforeAll(async () => {
    w = await createWorld();
    // Globex (gus) has no allowed networks; Acme keeps the test default (loopback and 10.0.0.0/8).
    const put = await w.call('PUT', `/api/companies/${w.globex}`, w.root.access, {
        name: 'Globex',
        is_active: true,
        allowed_networks: [],
    });
    expect(put.statusCode).toBe(200);
});
afterAll(() => w.t.close());

const endpoints = [
    { type: 'rpc', address: 'https://rpc.cosmos.example.com' },
    { type: 'rest', address: 'http://10.0.0.9:1317' },
];

describe('chain_endpoints on configurations', () => {
    it('is an empty list by default and is stored, read back and kept by a PUT that leaves it out', async () => {
        const bare = await w.configuration(w.admin.access, { name: 'Bare' });
        expect((await w.call('GET', `/api/configurations/${bare}`, w.admin.access)).json().chain_endpoints).toEqual([]);
        const created = await w.call('POST', '/api/configurations', w.admin.access, {
            name: 'Hub',
            chain: 'cosmoshub',
            chain_endpoints: endpoints,
        });
        expect(created.statusCode).toBe(201);
        expect(created.json().chain_endpoints).toEqual(endpoints);
        const id = created.json().id;
        const renamed = await w.call('PUT', `/api/configurations/${id}`, w.admin.access, {
            name: 'Hub 2',
            chain: 'cosmoshub',
        });
        expect(renamed.json().chain_endpoints).toEqual(endpoints);
        const cleared = await w.call('PUT', `/api/configurations/${id}`, w.admin.access, {
            name: 'Hub 2',
            chain: 'cosmoshub',
            chain_endpoints: [endpoints[0]],
        });
        expect(cleared.statusCode).toBe(200);
        const list = (await w.call('GET', '/api/configurations', w.plain.access)).json();
        expect(list.find((c: { id: number }) => c.id === id).chain_endpoints).toEqual([endpoints[0]]);
    });

    it.each([
        [{ type: 'grpc', address: 'https://rpc.example.com' }, /type must be rpc or rest/],
        [{ type: 'rpc', address: 'ftp://rpc.example.com' }, /http\(s\) URL/],
        [{ type: 'rpc', address: 'http://169.254.169.254/' }, /metadata/],
        [{ type: 'rpc', address: 'http://metadata.google.internal/' }, /metadata/],
        [{ type: 'rpc', address: 'https://user:pw@rpc.example.com' }, /must not hold credentials/],
        ['https://rpc.example.com', /chain_endpoints must be a list/],
    ])('refuses %j with a 400 naming chain_endpoints', async (entry, message) => {
        const res = await w.call('POST', '/api/configurations', w.admin.access, {
            name: 'Bad',
            chain: 'cosmoshub',
            chain_endpoints: [entry],
        });
        expect(res.statusCode).toBe(400);
        expect(Object.keys(res.json().errors)).toEqual(['chain_endpoints']);
        expect(res.json().errors.chain_endpoints).toMatch(message);
    });

    it('refuses a private endpoint outside the company allowed networks, and saves nothing', async () => {
        const before = (await w.t.app.ctx.db.select().from(configurations)).length;
        const res = await w.call('POST', '/api/configurations', w.other.access, {
            name: 'Private',
            chain: 'osmosis',
            chain_endpoints: [{ type: 'rpc', address: 'http://10.0.0.9:26657' }],
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors.chain_endpoints).toMatch(
            /^chain_endpoints\[0\]: Address refused: .*ask a super admin to add its range/
        );
        expect((await w.t.app.ctx.db.select().from(configurations)).length).toBe(before);
        const own = await w.configuration(w.other.access, { name: 'Globex hub' });
        const put = await w.call('PUT', `/api/configurations/${own}`, w.other.access, {
            name: 'Globex hub',
            chain: 'cosmoshub',
            chain_endpoints: [{ type: 'rest', address: 'http://127.0.0.1:1317' }],
        });
        expect(put.statusCode).toBe(400);
        expect(put.json().errors.chain_endpoints).toMatch(/Address refused/);
        expect((await w.call('GET', `/api/configurations/${own}`, w.other.access)).json().chain_endpoints).toEqual([]);
    });

    it("never shows or changes another company's endpoints", async () => {
        const acme = (
            await w.call('POST', '/api/configurations', w.admin.access, {
                name: 'Acme secret',
                chain: 'cosmoshub',
                chain_endpoints: [{ type: 'rpc', address: 'https://acme-private-rpc.example.com' }],
            })
        ).json().id;
        expect((await w.call('GET', `/api/configurations/${acme}`, w.other.access)).statusCode).toBe(404);
        const list = await w.call('GET', '/api/configurations', w.other.access);
        expect(list.body).not.toContain('acme-private-rpc');
        const put = await w.call('PUT', `/api/configurations/${acme}`, w.other.access, {
            name: 'Acme secret',
            chain: 'cosmoshub',
            chain_endpoints: [],
        });
        expect(put.statusCode).toBe(404);
        expect((await w.call('GET', `/api/configurations/${acme}`, w.admin.access)).json().chain_endpoints).toEqual([
            { type: 'rpc', address: 'https://acme-private-rpc.example.com' },
        ]);
    });

    it('travels through config-as-code: exported, imported as a no-op, changed, and refused by the same rules', async () => {
        const exported = await w.t.app.inject({ url: '/api/export?format=yaml', headers: auth(w.admin.access) });
        const doc = parse(exported.body);
        const hub = doc.configurations.find((c: { name: string }) => c.name === 'Hub 2');
        expect(hub.chain_endpoints).toEqual([endpoints[0]]);
        const importDoc = (body: unknown, token = w.admin.access) =>
            w.t.app.inject({
                method: 'POST',
                url: '/api/import?dry_run=false',
                headers: { ...auth(token), 'content-type': 'application/yaml' },
                payload: stringify(body),
            });
        const same = await importDoc(doc);
        expect(same.statusCode).toBe(200);
        expect(same.json().summary.update).toBe(0);
        hub.chain_endpoints = endpoints;
        const changed = await importDoc(doc);
        expect(changed.json().items).toContainEqual(
            expect.objectContaining({ action: 'update', kind: 'configuration', fields: ['chain_endpoints'] })
        );
        hub.chain_endpoints = [{ type: 'rpc', address: 'http://169.254.169.254/' }];
        const refused = await importDoc(doc);
        expect(refused.statusCode).toBe(400);
        expect(Object.keys(refused.json().errors)[0]).toMatch(/chain_endpoints/);
    });
});
