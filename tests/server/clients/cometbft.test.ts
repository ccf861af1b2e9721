import { createCometClient } from '../../../server/clients/cometbft';
import { createHttpClient, withPolicy } from '../../../server/clients/http';
import { parseRfc3339Ms } from '../../../server/clients/wire';
import { fixture, type Loopback, routes, startLoopback } from '../check-support';

const http = withPolicy(createHttpClient({ timeoutMs: 2000 }), { allowedNetworks: ['127.0.0.0/8'] });
let rpc: Loopback;

beforeAll(async () => {
    const desmos = fixture('tendermint-0.34-block-result-desmos-absent-signature.json'); // bare result, no envelope
    rpc = await startLoopback(
        routes({
            '/status': fixture('cometbft-0.38-status.json'),
            '/v034/status': fixture('tendermint-0.34-status-kvstore-jsonrpc-post.json'),
            '/v037/status': fixture('cometbft-0.37-status-kvstore-jsonrpc-post.json'),
            '/block?height=21955288': fixture('cometbft-block-cosmoshub-4-trimmed.json'),
            '/block?height=2296676': desmos,
            '/commit?height=10': fixture('cometbft-0.38-commit-kvstore.json'),
            '/commit?height=1': { status: 500, body: fixture('cometbft-error-height-not-available-cosmoshub-4.json') },
            '/block?height=0': { status: 500, body: fixture('cometbft-0.38-error-height-0.json') },
            '/validators?page=1&per_page=100': fixture('cometbft-validators-cosmoshub-4-page1.json'),
            '/validators?page=2&per_page=100': fixture('cometbft-validators-cosmoshub-4-page2.json'),
            '/bad/status':
                '{"jsonrpc":"2.0","id":-1,"result":{"node_info":{"network":"x","version":"1"},"sync_info":{}}}',
            '/html/status': { body: '<html>nginx</html>', type: 'text/html' },
        })
    );
});
afterAll(() => rpc.close());

describe('CometBFT RPC client', () => {
    it.each([
        ['', 26083, '0.38.6', 'F96E556F296977D9B6F53E67F5390DEC151B20FF'],
        ['/v034', 67, '0.34.21', '675F52E8FDA5F4047B8EAF498F946F551ED53DC2'],
        ['/v037', undefined, undefined, undefined],
    ])('reads /status of %s', async (prefix, height, version, address) => {
        const s = await createCometClient(http, `${rpc.url}${prefix}`).status();
        expect(s.catchingUp).toBe(false);
        expect(Number.isSafeInteger(s.latestHeight)).toBe(true);
        if (height !== undefined) expect(s.latestHeight).toBe(height);
        if (version !== undefined) expect(s.version).toBe(version);
        if (address !== undefined) expect(s.validatorAddress).toBe(address);
        expect(s.latestBlockTimeMs).toBeGreaterThan(Date.UTC(2020, 0, 1));
    });

    it('parses the status time with nanoseconds of any precision', async () => {
        const s = await createCometClient(http, rpc.url).status();
        expect(s.latestBlockTimeMs).toBe(Date.UTC(2024, 5, 11, 14, 7, 57, 125));
    });

    it('reads a block and its last_commit flags', async () => {
        const b = await createCometClient(http, rpc.url).block(21955288);
        expect(b.height).toBe(21955288);
        expect(b.lastCommit.height).toBe(21955287);
        expect(b.lastCommit.signatures[0]).toEqual({
            flag: 'commit',
            validatorAddress: 'D68EEC0D2E8248F1EC64CDB585EDB61ECA432BD8',
        });
    });

    it('reads an absent signature (flag 1, empty address) from an envelope-less 0.34 block', async () => {
        const b = await createCometClient(http, rpc.url).block(2296676);
        expect(b.lastCommit.height).toBe(2296675);
        expect(b.lastCommit.signatures.map((s) => s.flag)).toEqual(['commit', 'commit', 'commit', 'absent', 'commit']);
        expect(b.lastCommit.signatures[3]?.validatorAddress).toBe('');
    });

    it('reads a canonical commit', async () => {
        const c = await createCometClient(http, rpc.url).commit(10);
        expect(c.height).toBe(10);
        expect(c.signatures.length).toBeGreaterThan(0);
    });

    it('falls back to block height+1 when /commit is not served', async () => {
        // The fixture is block 10, whose last_commit is the commit for height 9.
        const lb = await startLoopback(routes({ '/block?height=10': fixture('cometbft-0.38-block-kvstore.json') }));
        const c = await createCometClient(http, lb.url).commit(9);
        expect(c.height).toBe(9);
        await lb.close();
    });

    it('turns JSON-RPC errors into sentences', async () => {
        const client = createCometClient(http, rpc.url);
        await expect(client.commit(1)).rejects.toThrow(
            /^RPC service http:\/\/127\.0\.0\.1:\d+\/commit\?height=1: error -32603: Internal error \(height 1 is not available, lowest height is 17966501\)$/
        );
        await expect(client.block(0)).rejects.toThrow('height must be greater than 0, but got 0');
    });

    it('pages through the validator set', async () => {
        const all = await createCometClient(http, rpc.url).allValidators();
        expect(all).toHaveLength(180);
        expect(all[0]?.address).toBe('D68EEC0D2E8248F1EC64CDB585EDB61ECA432BD8');
    });

    it('names the bad field of a malformed payload', async () => {
        await expect(createCometClient(http, `${rpc.url}/bad`).status()).rejects.toThrow(
            'answered an unexpected payload (sync_info.latest_block_height'
        );
        await expect(createCometClient(http, `${rpc.url}/html`).status()).rejects.toThrow('answered with invalid JSON');
        await expect(createCometClient(http, `${rpc.url}/html`).status()).rejects.not.toThrow('nginx');
    });
});

describe('parseRfc3339Ms', () => {
    it.each([
        ['2024-06-11T14:07:57.12519517Z', Date.UTC(2024, 5, 11, 14, 7, 57, 125)],
        ['2024-06-11T14:07:57Z', Date.UTC(2024, 5, 11, 14, 7, 57)],
        ['2024-06-11T16:07:57.5+02:00', Date.UTC(2024, 5, 11, 14, 7, 57, 500)],
        ['0001-01-01T00:00:00Z', null],
        ['9999-12-31T23:59:59Z', Date.UTC(9999, 11, 31, 23, 59, 59)],
        ['garbage', null],
    ])('%s', (text, expected) => {
        expect(parseRfc3339Ms(text)).toBe(expected);
    });
});
