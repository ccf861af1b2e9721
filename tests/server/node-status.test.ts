import { fixture, type Loopback, startLoopback } from './check-support';
import { createWorld, type World } from './config-fixtures';

/** GET /api/servers/{id}/node: the Network Status page's node column, from real CometBFT /status and /net_info. */
let w: World;
let node: Loopback;
let netInfo = 'tendermint-net_info-with-peers-cosmoshub-2.json';

beforeAll(async () => {
    node = await startLoopback((req, res) => {
        const body = req.url?.startsWith('/net_info')
            ? fixture(netInfo)
            : req.url?.startsWith('/status')
              ? fixture('cometbft-0.38-status.json')
              : null;
        res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
        res.end(body ?? '{}');
    });
    w = await createWorld();
});
afterAll(async () => {
    await w.t.close();
    await node.close();
});

async function serverWithRpc(token: string, rpc: string | null) {
    const cfg = await w.configuration(token);
    const srv = await w.server(token, cfg, { address: 'http://127.0.0.1' });
    if (rpc) {
        const res = await w.call('POST', '/api/services', token, {
            name: 'rpc',
            type: 'rpc',
            address: rpc,
            server_id: srv,
        });
        expect(res.statusCode).toBe(201);
    }
    return srv;
}

it("reads the node's height, block lag, peers and catching-up", async () => {
    const srv = await serverWithRpc(w.admin.access, node.url);
    const res = await w.call('GET', `/api/servers/${srv}/node`, w.plain.access);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
        height: 26083,
        latest_block_time: '2024-06-11T14:07:57.125Z',
        peers: 2,
        catching_up: false,
    });
    // The fixture's block is from 2024: its lag is counted from now.
    expect(body.block_lag_seconds).toBeGreaterThan(86_400);
});

it('reads a node without peers as 0 peers', async () => {
    netInfo = 'cometbft-0.38-net_info-no-peers.json';
    const srv = await serverWithRpc(w.admin.access, node.url);
    expect((await w.call('GET', `/api/servers/${srv}/node`, w.admin.access)).json().peers).toBe(0);
});

it('says what to add when the server has no rpc service, and answers 502 when the node is down', async () => {
    const bare = await serverWithRpc(w.admin.access, null);
    const none = await w.call('GET', `/api/servers/${bare}/node`, w.admin.access);
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toMatch(/no enabled rpc service/);
    const down = await serverWithRpc(w.admin.access, 'http://127.0.0.1:9');
    const refused = await w.call('GET', `/api/servers/${down}/node`, w.admin.access);
    expect(refused.statusCode).toBe(502);
});

it("is not answered for another company's server", async () => {
    const srv = await serverWithRpc(w.admin.access, node.url);
    expect((await w.call('GET', `/api/servers/${srv}/node`, w.other.access)).statusCode).toBe(404);
});
