import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from './helpers';
import { auth, createTestApp, login } from './helpers';

let directory: Server;
let hits = 0;
let t: TestApp;
let token: string;

beforeAll(async () => {
    directory = createServer((_req, res) => {
        hits++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
            JSON.stringify({
                repository: {},
                chains: [
                    {
                        name: 'simchain',
                        chain_name: 'simchain',
                        pretty_name: 'Sim Chain',
                        chain_id: 'sim-1',
                        bech32_prefix: 'sim',
                        network_type: 'mainnet',
                    },
                    { name: 'broken' },
                ],
            })
        );
    });
    await new Promise<void>((r) => directory.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(directory.address() as AddressInfo).port}`;
    // The testnet URL points at a closed port: the directory is unreachable there.
    // The directory is fetched for no company: only the operator's global switch opens loopback to it.
    t = await createTestApp({
        chainDirectoryUrl: url,
        chainDirectoryTestnetUrl: 'http://127.0.0.1:9',
        allowPrivateTargets: true,
    });
    token = (await login(t.app, 'admin', 'admin-password-1')).access;
});
afterAll(async () => {
    await t.close();
    await new Promise((r) => directory.close(r));
});

describe('GET /api/chains', () => {
    it('proxies the directory, skipping malformed entries, and caches the answer', async () => {
        const first = await t.app.inject({ url: '/api/chains', headers: auth(token) });
        expect(first.json()).toEqual([
            {
                name: 'simchain',
                pretty_name: 'Sim Chain',
                chain_id: 'sim-1',
                bech32_prefix: 'sim',
                network_type: 'mainnet',
            },
        ]);
        await t.app.inject({ url: '/api/chains?network=mainnet', headers: auth(token) });
        expect(hits).toBe(1);
        expect(t.app.ctx.chains.prefixFor('simchain')).toBe('sim');
    });

    it('falls back to the bundled list when the directory cannot be reached', async () => {
        const res = await t.app.inject({ url: '/api/chains?network=testnet', headers: auth(token) });
        expect(res.headers['x-chain-source']).toBe('bundled');
        const names = res.json().map((c: { name: string }) => c.name);
        expect(names).toContain('cosmoshubtestnet');
        expect(res.json()[0]).toHaveProperty('bech32_prefix');
    });

    it('knows the bech32 prefixes of well-known chains offline', () => {
        expect(t.app.ctx.chains.prefixFor('osmosis')).toBe('osmo');
        expect(t.app.ctx.chains.prefixFor('kaiyo-1')).toBe('kujira');
        expect(t.app.ctx.chains.prefixFor('no-such-chain')).toBeNull();
    });

    it('refuses an unknown network value', async () => {
        const res = await t.app.inject({ url: '/api/chains?network=devnet', headers: auth(token) });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toHaveProperty('network');
    });
});
