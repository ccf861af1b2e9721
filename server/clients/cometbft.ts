import { z } from 'zod';
import { type HttpClient, redactUrl } from './http';
import { fetchJson, joinUrl, NodeError, parsePayload, parseRfc3339Ms, wireInt } from './wire';

/**
 * CometBFT / Tendermint RPC (:26657), URI form (`GET /status`, `GET /block?height=5`). Heights are int64 strings,
 * times RFC3339 with nanoseconds, addresses uppercase hex; the JSON-RPC envelope may carry `error` instead of
 * `result`, with HTTP 500 on the URI path. The field set is the same from Tendermint 0.34 to CometBFT 1.x.
 */

const LABEL = 'RPC service';

export interface CometStatus {
    network: string;
    version: string;
    moniker: string;
    latestHeight: number;
    /** Null when the node has no block yet (zero time). */
    latestBlockTimeMs: number | null;
    earliestHeight: number;
    catchingUp: boolean;
    /** This node's own validator key address (uppercase hex), if any. */
    validatorAddress: string | null;
}

/** block_id_flag: 1 absent (missed), 2 commit (signed), 3 nil (voted nil; signed for x/slashing). */
export type SignatureFlag = 'absent' | 'commit' | 'nil' | 'unknown';

export interface CommitSignature {
    flag: SignatureFlag;
    /** Uppercase hex; '' for an absent vote. */
    validatorAddress: string;
}

export interface CometCommit {
    /** The height these signatures commit. */
    height: number;
    signatures: CommitSignature[];
    /** The block's proposer (uppercase hex), when the answer carried its header. */
    proposer?: string;
}

export interface CometBlock {
    height: number;
    timeMs: number | null;
    chainId: string;
    proposerAddress: string;
    /** The commit of the previous block (height − 1). */
    lastCommit: CometCommit;
}

export interface CometValidator {
    address: string;
    pubKey: { type: string; value: string };
    votingPower: number;
}

const FLAGS: Record<string, SignatureFlag> = {
    '1': 'absent',
    '2': 'commit',
    '3': 'nil',
    BLOCK_ID_FLAG_ABSENT: 'absent',
    BLOCK_ID_FLAG_COMMIT: 'commit',
    BLOCK_ID_FLAG_NIL: 'nil',
};

const signatureSchema = z
    .object({ block_id_flag: z.union([z.number(), z.string()]), validator_address: z.string().nullish() })
    .transform(
        (s): CommitSignature => ({
            flag: FLAGS[String(s.block_id_flag)] ?? 'unknown',
            validatorAddress: (s.validator_address ?? '').toUpperCase(),
        })
    );

const commitSchema = z.object({ height: wireInt, signatures: z.array(signatureSchema).nullish() });

const statusSchema = z.object({
    node_info: z.object({ network: z.string(), version: z.string(), moniker: z.string().optional() }),
    sync_info: z.object({
        latest_block_height: wireInt,
        latest_block_time: z.string(),
        earliest_block_height: wireInt.optional(),
        catching_up: z.boolean(),
    }),
    validator_info: z.object({ address: z.string() }).partial().optional(),
});

const netInfoSchema = z.object({ n_peers: wireInt });

const blockSchema = z.object({
    block: z.object({
        header: z.object({
            height: wireInt,
            time: z.string(),
            chain_id: z.string(),
            proposer_address: z.string().optional(),
        }),
        last_commit: commitSchema.nullish(),
    }),
});

const signedHeaderSchema = z.object({
    signed_header: z.object({
        header: z.object({ proposer_address: z.string().optional() }).optional(),
        commit: commitSchema,
    }),
});

const validatorsSchema = z.object({
    block_height: wireInt,
    validators: z.array(
        z.object({
            address: z.string(),
            pub_key: z.object({ type: z.string(), value: z.string() }),
            voting_power: wireInt,
        })
    ),
    count: wireInt,
    total: wireInt,
});

/** A JSON-RPC error object → 'error -32603: Internal error (height 9 is not available, lowest height is 12)'. */
function rpcErrorSentence(body: unknown): string | null {
    if (typeof body !== 'object' || body === null || !('error' in body)) return null;
    const e = (body as { error: unknown }).error;
    if (typeof e !== 'object' || e === null) return null;
    const { code, message, data } = e as { code?: unknown; message?: unknown; data?: unknown };
    const text = [typeof message === 'string' ? message : 'error', typeof data === 'string' && data ? `(${data})` : '']
        .join(' ')
        .trim();
    return `error ${typeof code === 'number' ? code : '?'}: ${text.slice(0, 256)}`;
}

function toCommit(c: z.infer<typeof commitSchema>): CometCommit {
    return { height: c.height, signatures: c.signatures ?? [] };
}

export interface CometClient {
    status(): Promise<CometStatus>;
    block(height?: number): Promise<CometBlock>;
    /** The canonical commit for `height` (small: no transactions). Falls back to block height+1 when /commit is missing. */
    commit(height: number): Promise<CometCommit>;
    validators(
        height?: number,
        page?: number,
        perPage?: number
    ): Promise<{ validators: CometValidator[]; total: number }>;
    /** Every page of the validator set at `height`. */
    allValidators(height?: number): Promise<CometValidator[]>;
    /** How many peers the node is connected to (`/net_info` n_peers). */
    peers(): Promise<number>;
}

export function createCometClient(http: HttpClient, baseUrl: string, signal?: AbortSignal): CometClient {
    async function call<T>(path: string, schema: z.ZodType<T>): Promise<T> {
        const url = joinUrl(baseUrl, path);
        const body = await fetchJson(http, LABEL, url, signal, rpcErrorSentence);
        if (typeof body !== 'object' || body === null) return parsePayload(schema, body, LABEL, url);
        const sentence = rpcErrorSentence(body);
        if (sentence) throw new NodeError(`${LABEL} ${redactUrl(url)}: ${sentence}`);
        // Some proxies strip the envelope; accept the bare result too.
        const result = 'result' in body ? (body as { result: unknown }).result : body;
        return parsePayload(schema, result, LABEL, url);
    }

    async function block(height?: number): Promise<CometBlock> {
        const r = await call(height === undefined ? '/block' : `/block?height=${height}`, blockSchema);
        const h = r.block.header;
        return {
            height: h.height,
            timeMs: parseRfc3339Ms(h.time),
            chainId: h.chain_id,
            proposerAddress: (h.proposer_address ?? '').toUpperCase(),
            lastCommit: r.block.last_commit ? toCommit(r.block.last_commit) : { height: h.height - 1, signatures: [] },
        };
    }

    async function validators(height?: number, page = 1, perPage = 100) {
        const q = `${height === undefined ? '' : `height=${height}&`}page=${page}&per_page=${perPage}`;
        const r = await call(`/validators?${q}`, validatorsSchema);
        return {
            total: r.total,
            validators: r.validators.map((v) => ({
                address: v.address.toUpperCase(),
                pubKey: v.pub_key,
                votingPower: v.voting_power,
            })),
        };
    }

    return {
        async status() {
            const r = await call('/status', statusSchema);
            return {
                network: r.node_info.network,
                version: r.node_info.version,
                moniker: r.node_info.moniker ?? '',
                latestHeight: r.sync_info.latest_block_height,
                latestBlockTimeMs: parseRfc3339Ms(r.sync_info.latest_block_time),
                earliestHeight: r.sync_info.earliest_block_height ?? 1,
                catchingUp: r.sync_info.catching_up,
                validatorAddress: r.validator_info?.address ? r.validator_info.address.toUpperCase() : null,
            };
        },
        block,
        async peers() {
            return (await call('/net_info', netInfoSchema)).n_peers;
        },
        async commit(height) {
            try {
                const r = await call(`/commit?height=${height}`, signedHeaderSchema);
                const proposer = r.signed_header.header?.proposer_address;
                return {
                    ...toCommit(r.signed_header.commit),
                    ...(proposer ? { proposer: proposer.toUpperCase() } : {}),
                };
            } catch (err) {
                // A node or proxy that does not serve /commit: block height+1 carries the same canonical commit.
                if (!(err instanceof NodeError) || !/HTTP 404|error -32601/.test(err.message)) throw err;
                const last = (await block(height + 1)).lastCommit;
                if (last.height !== height)
                    throw new NodeError(
                        `${LABEL} ${redactUrl(baseUrl)}: block ${height + 1} carries the commit of ${last.height}, not ${height}`
                    );
                return last;
            }
        },
        validators,
        async allValidators(height) {
            const out: CometValidator[] = [];
            for (let page = 1; page <= 100; page++) {
                const r = await validators(height, page, 100);
                out.push(...r.validators);
                if (out.length >= r.total || r.validators.length === 0) break;
            }
            return out;
        },
    };
}
