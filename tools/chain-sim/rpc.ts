// CometBFT RPC (like :26657), URI (GET) and JSON-RPC (POST /) forms (protocols.md §1).
import { nextValidatorsHash, renderBlock, renderCommit, renderHeader } from './block-render';
import { rfc3339Nano } from './format';
import { type Handler, json, type SimResponse } from './http';
import { nodeId } from './keys';
import type { SimNode } from './node';

type Id = number | string | null;
type Params = Record<string, unknown>;

/** An error a method raises; becomes a JSON-RPC error envelope. */
class RpcError extends Error {
    constructor(
        readonly code: number,
        readonly rpcMessage: string,
        readonly data: string
    ) {
        super(data);
    }
}

const internal = (data: string) => new RpcError(-32603, 'Internal error', data);
const invalidParams = (data: string) => new RpcError(-32602, 'Invalid params', data);

/** Positional parameter names, for JSON-RPC calls that send `params` as an array. */
const METHODS: Record<string, { args: string[]; run: (node: SimNode, p: Params) => unknown }> = {
    health: { args: [], run: () => ({}) },
    status: { args: [], run: status },
    net_info: { args: [], run: netInfo },
    abci_info: { args: [], run: abciInfo },
    block: { args: ['height'], run: block },
    commit: { args: ['height'], run: commit },
    validators: { args: ['height', 'page', 'per_page'], run: validators },
};

export function rpcHandler(node: SimNode): Handler {
    return (req) => {
        // CometBFT v1 serves every route at /v1/<method> too.
        const path = req.path.replace(/^\/v1(?=\/)/, '');
        if (req.method === 'POST' && path === '/') return jsonRpc(node, req.body);
        if (path === '/') return { status: 200, body: routeList(), contentType: 'text/html' };
        const name = path.slice(1);
        const method = METHODS[name];
        // The URI routes are plain Go mux entries: an unknown path is the mux's 404 text.
        if (!method) return { status: 404, body: '404 page not found\n', contentType: 'text/plain; charset=utf-8' };
        const params: Params = {};
        for (const [k, v] of req.query) params[k] = v.replace(/^"(.*)"$/, '$1');
        try {
            const result = method.run(node, params);
            // Answers for an explicit height never change, so CometBFT lets caches keep them for a day.
            const headers = params.height !== undefined ? { 'Cache-Control': 'public, max-age=86400' } : undefined;
            return json(200, { jsonrpc: '2.0', id: -1, result }, headers);
        } catch (err) {
            // Invalid params and internal errors both give HTTP 500 on the URI path.
            return errorResponse(-1, err, 500);
        }
    };
}

function jsonRpc(node: SimNode, body: string): SimResponse {
    let parsed: unknown;
    try {
        parsed = JSON.parse(body);
    } catch (err) {
        // No id could be read, so the field is omitted (it is `omitempty` in CometBFT).
        const error = { code: -32700, message: 'Parse error', data: `error unmarshaling request: ${String(err)}` };
        return json(500, { jsonrpc: '2.0', error });
    }
    const one = (request: unknown) => {
        const r = (request ?? {}) as { id?: Id; method?: unknown; params?: unknown };
        const id = r.id ?? null;
        const method = typeof r.method === 'string' ? METHODS[r.method] : undefined;
        if (!method) return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
        const params: Params = {};
        if (Array.isArray(r.params)) {
            for (const [i, name] of method.args.entries()) params[name] = (r.params as unknown[])[i];
        } else if (r.params && typeof r.params === 'object') Object.assign(params, r.params);
        try {
            return { jsonrpc: '2.0', id, result: method.run(node, params) };
        } catch (err) {
            return errorBody(id, err);
        }
    };
    // Method errors still travel with HTTP 200 on the JSON-RPC path.
    return json(200, Array.isArray(parsed) ? parsed.map(one) : one(parsed));
}

function errorBody(id: Id, err: unknown) {
    const e = err instanceof RpcError ? err : internal(String(err));
    return { jsonrpc: '2.0', id, error: { code: e.code, message: e.rpcMessage, data: e.data } };
}

function errorResponse(id: Id, err: unknown, status: number): SimResponse {
    return json(status, errorBody(id, err));
}

/** Parse an optional int parameter the way CometBFT does (JSON number or decimal string). */
function intParam(p: Params, name: string): number | undefined {
    const raw = p[name];
    if (raw === undefined || raw === null || raw === '') return undefined;
    const n = typeof raw === 'number' ? raw : Number(String(raw));
    if (!Number.isInteger(n)) {
        throw invalidParams(`error converting http params to arguments: invalid ${name}: ${JSON.stringify(raw)}`);
    }
    return n;
}

/** rpc/core/env.go getHeight: the three error texts of protocols.md §1.1. */
function resolveHeight(node: SimNode, p: Params, current: number): number {
    const height = intParam(p, 'height');
    if (height === undefined) return current;
    if (height <= 0) throw internal(`height must be greater than 0, but got ${height}`);
    if (height > current) {
        throw internal(`height ${height} must be less than or equal to the current blockchain height ${current}`);
    }
    const base = node.chain.earliestHeight;
    if (height < base) throw internal(`height ${height} is not available, lowest height is ${base}`);
    return height;
}

export function nodeInfo(node: SimNode) {
    return {
        protocol_version: { p2p: '8', block: '11', app: '0' },
        id: node.nodeId,
        listen_addr: 'tcp://0.0.0.0:26656',
        network: node.chain.config.chainId,
        version: '0.38.12',
        channels: '40202122233038606100',
        moniker: node.moniker,
        other: { tx_index: 'on', rpc_address: 'tcp://0.0.0.0:26657' },
    };
}

function status(node: SimNode) {
    const chain = node.chain;
    const head = node.headBlock;
    const earliest = chain.blocks[0] ?? head;
    return {
        node_info: nodeInfo(node),
        sync_info: {
            latest_block_hash: head.hash,
            latest_app_hash: head.appHash,
            latest_block_height: String(head.height),
            latest_block_time: rfc3339Nano(head.timeNs + node.timeShiftNs),
            earliest_block_hash: earliest.hash,
            earliest_app_hash: earliest.appHash,
            earliest_block_height: String(earliest.height),
            earliest_block_time: rfc3339Nano(earliest.timeNs + node.timeShiftNs),
            catching_up: node.catchingUp,
        },
        validator_info: {
            address: node.privval.hexAddress,
            pub_key: { type: 'tendermint/PubKeyEd25519', value: node.privval.consensusPubkeyB64 },
            voting_power: String(node.votingPower),
        },
    };
}

function block(node: SimNode, p: Params) {
    const b = node.chain.block(resolveHeight(node, p, node.height));
    if (!b) throw internal('block not found');
    const chainId = node.chain.config.chainId;
    const next = nextValidatorsHash(node.chain, b);
    return {
        block_id: { hash: b.hash, parts: { total: 1, hash: b.partsHash } },
        block: renderBlock(b, chainId, next, node.timeShiftNs, 'rpc'),
    };
}

function commit(node: SimNode, p: Params) {
    const height = resolveHeight(node, p, node.height);
    const b = node.chain.block(height);
    if (!b) throw internal('commit not found');
    const header = renderHeader(
        b,
        node.chain.config.chainId,
        nextValidatorsHash(node.chain, b),
        node.timeShiftNs,
        'rpc'
    );
    return {
        signed_header: { header, commit: renderCommit(b.commit, node.timeShiftNs, 'rpc') },
        // The newest commit is the node's "seen commit", not yet canonical until H+1 is committed.
        canonical: height < node.height,
    };
}

/** /validators with the paging rules of protocols.md §1.6. */
function validators(node: SimNode, p: Params) {
    // Without a height CometBFT answers for the next height (store height + 1).
    const height = resolveHeight(node, p, node.height + 1);
    const set = node.validatorSet(height) ?? [];
    let perPage = intParam(p, 'per_page') ?? 30;
    if (perPage < 1) perPage = 30;
    if (perPage > 100) perPage = 100;
    const pageParam = intParam(p, 'page');
    const pages = Math.max(1, Math.ceil(set.length / perPage));
    if (pageParam !== undefined && (pageParam < 1 || pageParam > pages)) {
        throw internal(`page should be within [1, ${pages}] range, given ${pageParam}`);
    }
    const page = pageParam ?? 1;
    const slice = set.slice((page - 1) * perPage, page * perPage);
    return {
        block_height: String(height),
        validators: slice.map((e) => ({
            address: e.validator.hexAddress,
            pub_key: { type: 'tendermint/PubKeyEd25519', value: e.validator.consensusPubkeyB64 },
            voting_power: String(e.power),
            proposer_priority: String(e.proposerPriority),
        })),
        count: String(slice.length),
        total: String(set.length),
    };
}

function netInfo(node: SimNode) {
    const peers = Array.from({ length: node.peers }, (_, i) => {
        const info = nodeInfo(node);
        const ip = `10.0.${node.index}.${i + 10}`;
        const monitor = {
            Active: true,
            Start: '2024-06-01T00:00:00Z',
            Duration: '3600000000000',
            Idle: '20000000',
            Bytes: '123456',
            Samples: '100',
            InstRate: '512',
            CurRate: '1024',
            AvgRate: '800',
            PeakRate: '4096',
            BytesRem: '0',
            TimeRem: '0',
            Progress: 0,
        };
        return {
            node_info: {
                ...info,
                id: nodeId(`${node.chain.config.chainId}/${node.index}/peer/${i}`),
                listen_addr: `tcp://${ip}:26656`,
                moniker: `peer-${i}`,
            },
            is_outbound: i % 2 === 0,
            connection_status: {
                Duration: '3600000000000',
                SendMonitor: monitor,
                RecvMonitor: monitor,
                Channels: [
                    { ID: 32, SendQueueCapacity: '100', SendQueueSize: '0', Priority: '6', RecentlySent: '1024' },
                    { ID: 48, SendQueueCapacity: '1000', SendQueueSize: '0', Priority: '5', RecentlySent: '0' },
                ],
            },
            remote_ip: ip,
        };
    });
    return { listening: true, listeners: ['Listener(@)'], n_peers: String(peers.length), peers };
}

function abciInfo(node: SimNode) {
    const head = node.headBlock;
    // Every field is omitempty: app version 0 (as in the block headers) means no `app_version` at all.
    return {
        response: {
            data: 'simapp',
            version: 'v0.50.9',
            last_block_height: String(head.height),
            last_block_app_hash: Buffer.from(head.appHash, 'hex').toString('base64'),
        },
    };
}

function routeList(): string {
    const links = Object.keys(METHODS)
        .map((m) => `<a href="/${m}">/${m}</a></br>`)
        .join('\n');
    return `<html><body><br>Available endpoints:<br>\n${links}\n</body></html>`;
}
