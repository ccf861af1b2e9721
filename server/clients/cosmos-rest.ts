import { z } from 'zod';
import { type HttpClient, redactUrl } from './http';
import { decTimesInt, fetchJson, joinUrl, NodeError, parsePayload, parseRfc3339Ms, wireInt } from './wire';

/**
 * Cosmos SDK REST (gRPC-gateway, :1317). Integers are strings, bytes base64, enums names, errors
 * `{code, message, details}` with the gRPC code (5 NotFound → HTTP 404, 12 Not Implemented → 501).
 */

const LABEL = 'REST service';

export type BondStatus =
    | 'BOND_STATUS_BONDED'
    | 'BOND_STATUS_UNBONDING'
    | 'BOND_STATUS_UNBONDED'
    | 'BOND_STATUS_UNSPECIFIED';

export interface StakingValidator {
    operatorAddress: string;
    moniker: string;
    /** Any type URL, e.g. `/cosmos.crypto.ed25519.PubKey`, and the base64 key. */
    consensusPubkey: { type: string; key: string };
    jailed: boolean;
    status: BondStatus | string;
    tokens: string;
}

export interface SlashingParams {
    signedBlocksWindow: number;
    /** Misses allowed in the window; the validator is jailed above this (x/slashing). */
    maxMissed: number;
}

export interface SigningInfo {
    missedBlocksCounter: number;
    /** Null for the zero/epoch time (never jailed for downtime). */
    jailedUntilMs: number | null;
    tombstoned: boolean;
    startHeight: number;
    indexOffset: number;
}

const validatorSchema = z.object({
    validator: z.object({
        operator_address: z.string(),
        consensus_pubkey: z.looseObject({ '@type': z.string(), key: z.string().optional() }),
        // Proto3 JSON may leave out a false boolean.
        jailed: z.boolean().default(false),
        status: z.string(),
        tokens: z.string().optional(),
        description: z.object({ moniker: z.string().optional() }).optional(),
    }),
});

const slashingParamsSchema = z.object({
    params: z.object({ signed_blocks_window: wireInt, min_signed_per_window: z.string() }),
});

const signingInfoSchema = z.object({
    val_signing_info: z.object({
        missed_blocks_counter: wireInt,
        jailed_until: z.string(),
        tombstoned: z.boolean().default(false),
        start_height: wireInt.optional(),
        index_offset: wireInt.optional(),
    }),
});

const headerSchema = z.object({ header: z.object({ height: wireInt, time: z.string(), chain_id: z.string() }) });
// SDK 0.47+ answers `sdk_block` beside the deprecated `block`; a node may drop the latter.
const latestBlockSchema = z
    .object({ block: headerSchema.nullish(), sdk_block: headerSchema.nullish() })
    .transform((b, ctx) => {
        const block = b.sdk_block ?? b.block;
        if (!block) ctx.addIssue({ code: 'custom', message: 'neither sdk_block nor block', path: ['block'] });
        return block as z.infer<typeof headerSchema>;
    });

const syncingSchema = z.object({ syncing: z.boolean().default(false) });
// Terra-style modules count missed vote periods; Sei counts misses and abstentions apart, and both are misses.
const missSchema = z.union([
    z.object({ miss_counter: wireInt }).transform((m) => m.miss_counter),
    z
        .object({ vote_penalty_counter: z.object({ miss_count: wireInt, abstain_count: wireInt.default(0) }) })
        .transform((m) => m.vote_penalty_counter.miss_count + m.vote_penalty_counter.abstain_count),
]);

export interface GatewayError {
    code: number;
    message: string;
}

export function asGatewayError(body: unknown): GatewayError | null {
    if (typeof body !== 'object' || body === null) return null;
    const { code, message } = body as { code?: unknown; message?: unknown };
    if (typeof code !== 'number' || code === 0 || typeof message !== 'string') return null;
    return { code, message };
}

/** gRPC-gateway error → a sentence: 'validator cosmosvaloper1… not found', 'this path is not served (Not Implemented)…'. */
export function gatewaySentence(body: unknown): string | null {
    const e = asGatewayError(body);
    if (!e) return null;
    const message = e.message.slice(0, 256);
    if (e.code === 12)
        return 'this path is not served (Not Implemented): the module is not on this chain or the path is wrong';
    if (e.code === 5) return message.replace(/^rpc error: code = NotFound desc = /, '');
    return `${message} (gRPC code ${e.code})`;
}

export interface RestClient {
    validator(valoper: string): Promise<StakingValidator>;
    slashingParams(): Promise<SlashingParams>;
    /** Null when the chain has no signing info for this address (a validator that never was bonded). */
    signingInfo(valcons: string): Promise<SigningInfo | null>;
    latestBlock(): Promise<{ height: number; timeMs: number | null; chainId: string }>;
    syncing(): Promise<boolean>;
    /** GET an oracle miss counter path (already filled with the valoper). */
    oracleMissCounter(path: string): Promise<number>;
}

export function createRestClient(http: HttpClient, baseUrl: string, signal?: AbortSignal): RestClient {
    async function get<T>(path: string, schema: z.ZodType<T>): Promise<T> {
        const url = joinUrl(baseUrl, path);
        const body = await fetchJson(http, LABEL, url, signal, gatewaySentence);
        // Some gateways answer errors with 200.
        const sentence = gatewaySentence(body);
        if (sentence) throw new NodeError(`${LABEL} ${redactUrl(url)}: ${sentence}`);
        return parsePayload(schema, body, LABEL, url);
    }

    return {
        async validator(valoper) {
            const v = (await get(`/cosmos/staking/v1beta1/validators/${encodeURIComponent(valoper)}`, validatorSchema))
                .validator;
            return {
                operatorAddress: v.operator_address,
                moniker: v.description?.moniker ?? '',
                consensusPubkey: { type: v.consensus_pubkey['@type'], key: v.consensus_pubkey.key ?? '' },
                jailed: v.jailed,
                status: v.status,
                tokens: v.tokens ?? '0',
            };
        },
        async slashingParams() {
            const p = (await get('/cosmos/slashing/v1beta1/params', slashingParamsSchema)).params;
            const minSigned = decTimesInt(p.min_signed_per_window, p.signed_blocks_window);
            return { signedBlocksWindow: p.signed_blocks_window, maxMissed: p.signed_blocks_window - minSigned };
        },
        async signingInfo(valcons) {
            let r: z.infer<typeof signingInfoSchema>;
            try {
                r = await get(
                    `/cosmos/slashing/v1beta1/signing_infos/${encodeURIComponent(valcons)}`,
                    signingInfoSchema
                );
            } catch (err) {
                // Only the module's own NotFound; a 404 page from a wrong base URL must stay an error.
                if (err instanceof NodeError && /SigningInfo not found|no signing info/i.test(err.message)) return null;
                throw err;
            }
            const s = r.val_signing_info;
            return {
                missedBlocksCounter: s.missed_blocks_counter,
                jailedUntilMs: parseRfc3339Ms(s.jailed_until) || null,
                tombstoned: s.tombstoned,
                startHeight: s.start_height ?? 0,
                indexOffset: s.index_offset ?? 0,
            };
        },
        async latestBlock() {
            const h = (await get('/cosmos/base/tendermint/v1beta1/blocks/latest', latestBlockSchema)).header;
            return { height: h.height, timeMs: parseRfc3339Ms(h.time), chainId: h.chain_id };
        },
        async syncing() {
            return (await get('/cosmos/base/tendermint/v1beta1/syncing', syncingSchema)).syncing;
        },
        async oracleMissCounter(path) {
            return await get(path, missSchema);
        },
    };
}
