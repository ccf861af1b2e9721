import { chooseSource, type ChainSource } from '../../../server/engine/chain-sources';
import { type Loopback, startLoopback } from '../check-support';
import { http } from './checks/ctx';

/** Choosing the source a duty check reads through: freshness, preference, the refusal sentence and the shared read. */
interface Head {
    height: number;
    ageMs: number;
}
const heads = new Map<string, Head>();
const hits = new Map<string, number>();
const nodes: Loopback[] = [];

async function restNode(name: string, head: Head): Promise<string> {
    heads.set(name, head);
    const node = await startLoopback((_req, res) => {
        hits.set(name, (hits.get(name) ?? 0) + 1);
        const h = heads.get(name) as Head;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
            JSON.stringify({
                block: {
                    header: {
                        height: String(h.height),
                        time: new Date(Date.now() - h.ageMs).toISOString(),
                        chain_id: 'simchain-1',
                    },
                },
            })
        );
    });
    nodes.push(node);
    return node.url;
}
afterAll(async () => {
    for (const n of nodes) await n.close();
});

const source = (name: string, serverId: number | null, rest: string | null, rpc: string | null = null) =>
    ({ name, serverId, rest, rpc }) satisfies ChainSource;
let scope = 0;
/** Each case its own cache scope, so one case's reads are not another's. */
const choose = (sources: ChainSource[], own: number | null) => chooseSource(sources, own, http, String(++scope));

it('prefers the own server while it is fresh, even a block or two behind the best', async () => {
    const own = source('validator-1', 1, await restNode('own', { height: 1000, ageMs: 2000 }));
    const sentry = source('sentry-1', 2, await restNode('sentry', { height: 1002, ageMs: 500 }));
    const chosen = await choose([own, sentry], 1);
    expect(chosen.used).toEqual({ name: 'validator-1', height: 1000, own: true });
    expect(chosen.services).toEqual([{ type: 'rest', address: own.rest }]);
});

it('passes over a source 10 blocks behind and one whose last block is older than 30 s', async () => {
    const behind = source('validator-1', 1, await restNode('behind', { height: 990, ageMs: 1000 }));
    const stale = source('archive', 3, await restNode('stale', { height: 1000, ageMs: 45_000 }));
    const sentry = source('sentry-1', 2, await restNode('sentry2', { height: 1000, ageMs: 800 }));
    const chosen = await choose([behind, stale, sentry], 1);
    expect(chosen.used).toEqual({ name: 'sentry-1', height: 1000, own: false });
});

it('takes rpc from another fresh source when the chosen one has only rest', async () => {
    const rest = source('rest.example.com', null, await restNode('rest-only', { height: 51, ageMs: 100 }));
    const rpcOnly = source('rpc.example.com', null, null, 'http://127.0.0.1:9/');
    const withRpc = source(
        'sentry-1',
        2,
        await restNode('with-rpc', { height: 50, ageMs: 100 }),
        'http://rpc-of-sentry'
    );
    const chosen = await choose([rest, rpcOnly, withRpc], null);
    expect(chosen.used.name).toBe('rest.example.com');
    expect(chosen.services).toContainEqual({ type: 'rpc', address: 'http://rpc-of-sentry' });
});

it('names every source and why when none is fresh', async () => {
    const stuck = source('validator-1', 1, await restNode('stuck', { height: 1_204_331, ageMs: 4 * 60_000 }));
    const refused = source('sentry-1', 2, 'http://127.0.0.1:9');
    await expect(choose([stuck, refused], 1)).rejects.toThrow(
        /^no fresh source: validator-1 stuck at 1,204,331 for 4 min, sentry-1 refused$/
    );
});

it('reads each source once for many monitors checking at the same time', async () => {
    const a = source('validator-1', 1, await restNode('shared-a', { height: 7, ageMs: 100 }));
    const b = source('sentry-1', 2, await restNode('shared-b', { height: 7, ageMs: 100 }));
    const same = String(++scope);
    await Promise.all(Array.from({ length: 20 }, () => chooseSource([a, b], 1, http, same)));
    expect(hits.get('shared-a')).toBe(1);
    expect(hits.get('shared-b')).toBe(1);
});
