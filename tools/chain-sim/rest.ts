// Cosmos SDK REST / gRPC-gateway (like :1317): staking, slashing, base/tendermint (protocols.md §2).
// Gateway conventions: bare objects, string int64s, base64 bytes, enum names, errors {code,message,details}.
import { blockId, nextValidatorsHash, renderBlock } from './block-render';
import type { SimValidator } from './chain';
import { dec, rfc3339Nano, ZERO_TIME } from './format';
import { checkBech32, grpcError, notImplemented, paginate, type RestContext } from './gateway';
import { type Handler, json, type SimRequest, type SimResponse } from './http';
import { decodeBech32 } from './keys';
import type { SimNode } from './node';
import { govRoute } from './gov';
import { oracleRoute } from './oracle';
import { nodeInfo } from './rpc';

export function restHandler(node: SimNode): Handler {
    return (req) => {
        // Historical query header: read state at that height, echo the height used.
        const asked = req.headers['x-cosmos-block-height'];
        const height = asked ? Number(asked) : node.height;
        if (!Number.isInteger(height) || height < node.chain.earliestHeight || height > node.height) {
            return grpcError(
                3,
                `failed to load state at height ${asked}; version does not exist (latest height: ${node.height})`
            );
        }
        const headers = { 'x-cosmos-block-height': String(height) };
        const ctx: RestContext = {
            node,
            height,
            query: req.query,
            state: (v) => node.validatorState(v.index, height) ?? v.state,
        };
        const res = route(ctx, req);
        res.headers = { ...headers, ...res.headers };
        return res;
    };
}

/** Exact paths, then parameterised ones; anything else is the gateway's 501 (or an oracle route). */
function route(ctx: RestContext, req: SimRequest): SimResponse {
    const path = req.path.replace(/\/+$/, '');
    const exact: Record<string, () => SimResponse> = {
        '/cosmos/staking/v1beta1/validators': () => validators(ctx),
        '/cosmos/staking/v1beta1/params': () => json(200, { params: stakingParams(ctx) }),
        '/cosmos/slashing/v1beta1/params': () => json(200, { params: slashingParams(ctx) }),
        '/cosmos/slashing/v1beta1/signing_infos': () => signingInfos(ctx),
        '/cosmos/base/tendermint/v1beta1/blocks/latest': () => restBlock(ctx, ctx.node.height),
        '/cosmos/base/tendermint/v1beta1/syncing': () => json(200, { syncing: ctx.node.catchingUp }),
        '/cosmos/base/tendermint/v1beta1/node_info': () => json(200, restNodeInfo(ctx.node)),
        '/cosmos/base/tendermint/v1beta1/validatorsets/latest': () => validatorSet(ctx),
        '/cosmos/upgrade/v1beta1/current_plan': () => json(200, { plan: currentPlan(ctx) }),
    };
    const handler = exact[path];
    if (handler) return handler();
    const param = (re: RegExp) => {
        const m = path.match(re);
        return m ? decodeURIComponent(m[1] ?? '') : null;
    };
    const valoper = param(/^\/cosmos\/staking\/v1beta1\/validators\/([^/]+)$/);
    if (valoper !== null) return validator(ctx, valoper);
    const valcons = param(/^\/cosmos\/slashing\/v1beta1\/signing_infos\/([^/]+)$/);
    if (valcons !== null) return signingInfo(ctx, valcons);
    const height = param(/^\/cosmos\/base\/tendermint\/v1beta1\/blocks\/(\d+)$/);
    if (height !== null) return restBlock(ctx, Number(height));
    return govRoute(ctx, path) ?? oracleRoute(ctx, path) ?? notImplemented();
}

function validator(ctx: RestContext, addr: string): SimResponse {
    const chain = ctx.node.chain;
    const bad = checkBech32(addr, `${chain.config.prefix}valoper`);
    if (bad) return bad;
    const v = chain.validators.find((x) => x.valoper === addr);
    return v ? json(200, { validator: renderValidator(ctx, v) }) : grpcError(5, `validator ${addr} not found`);
}

function signingInfo(ctx: RestContext, addr: string): SimResponse {
    const chain = ctx.node.chain;
    const bad = checkBech32(addr, `${chain.config.prefix}valcons`);
    if (bad) return bad;
    const v = chain.validators.find((x) => x.valcons === addr);
    return v
        ? json(200, { val_signing_info: renderSigningInfo(ctx, v) })
        : grpcError(5, `SigningInfo not found for validator ${addr}`);
}

function signingInfos(ctx: RestContext): SimResponse {
    // The store iterates by consensus address bytes.
    const sorted = [...ctx.node.chain.validators].sort((a, b) => a.hexAddress.localeCompare(b.hexAddress));
    return paginate(ctx.query, sorted, 'info', (v) => renderSigningInfo(ctx, v));
}

function validators(ctx: RestContext): SimResponse {
    const status = ctx.query.get('status') ?? '';
    const allowed = ['', 'BOND_STATUS_BONDED', 'BOND_STATUS_UNBONDING', 'BOND_STATUS_UNBONDED'];
    if (!allowed.includes(status)) return grpcError(3, `invalid validator status ${status}`);
    // The store iterates by operator address bytes.
    const list = [...ctx.node.chain.validators]
        .filter((v) => status === '' || ctx.state(v).status === status)
        .sort((a, b) =>
            Buffer.compare(Buffer.from(decodeBech32(a.valoper).data), Buffer.from(decodeBech32(b.valoper).data))
        );
    return paginate(ctx.query, list, 'validators', (v) => renderValidator(ctx, v));
}

export function renderValidator(ctx: RestContext, v: SimValidator) {
    const st = ctx.state(v);
    return {
        operator_address: v.valoper,
        consensus_pubkey: { '@type': '/cosmos.crypto.ed25519.PubKey', key: v.consensusPubkeyB64 },
        jailed: st.jailed,
        status: st.status,
        tokens: String(st.tokens),
        delegator_shares: dec(st.tokens),
        description: { moniker: v.moniker, identity: '', website: '', security_contact: '', details: '' },
        unbonding_height: String(st.unbondingHeight),
        unbonding_time: st.unbondingTime,
        commission: {
            commission_rates: { rate: dec('0.05'), max_rate: dec('0.2'), max_change_rate: dec('0.01') },
            update_time: rfc3339Nano(ctx.node.chain.genesisTimeNs),
        },
        min_self_delegation: '1',
        unbonding_on_hold_ref_count: '0',
        unbonding_ids: [],
    };
}

function renderSigningInfo(ctx: RestContext, v: SimValidator) {
    const s = ctx.state(v).signing;
    return {
        address: v.valcons,
        start_height: String(s.startHeight),
        index_offset: String(s.indexOffset),
        jailed_until: s.jailedUntil,
        tombstoned: s.tombstoned,
        missed_blocks_counter: String(s.missedBlocksCounter),
    };
}

function stakingParams(ctx: RestContext) {
    return {
        unbonding_time: '1814400s',
        max_validators: ctx.node.chain.config.maxValidators,
        max_entries: 7,
        historical_entries: 10000,
        bond_denom: ctx.node.chain.config.bondDenom,
        min_commission_rate: dec(0),
    };
}

function slashingParams(ctx: RestContext) {
    const c = ctx.node.chain.config;
    return {
        signed_blocks_window: String(c.signedBlocksWindow),
        min_signed_per_window: dec(c.minSignedPerWindow),
        downtime_jail_duration: `${c.downtimeJailSeconds}s`,
        slash_fraction_double_sign: dec('0.05'),
        slash_fraction_downtime: dec('0.0001'),
    };
}

function restBlock(ctx: RestContext, height: number): SimResponse {
    const node = ctx.node;
    const chain = node.chain;
    if (height > node.height) {
        return grpcError(3, `requested block height is bigger then the chain length`);
    }
    const b = chain.block(height);
    if (!b) return grpcError(13, `height ${height} is not available, lowest height is ${chain.earliestHeight}`);
    const block = renderBlock(b, chain.config.chainId, nextValidatorsHash(chain, b), node.timeShiftNs, 'rest');
    // sdk_block (SDK ≥ 0.47) differs only in the proposer, given as valcons.
    const proposer = chain.validators.find((v) => v.hexAddress === b.proposerHex);
    const sdkBlock = { ...block, header: { ...block.header, proposer_address: proposer?.valcons ?? '' } };
    return json(200, { block_id: blockId(b.hash, b.partsHash, 'rest'), block, sdk_block: sdkBlock });
}

function restNodeInfo(node: SimNode) {
    const info = nodeInfo(node);
    return {
        default_node_info: {
            protocol_version: info.protocol_version,
            default_node_id: info.id,
            listen_addr: info.listen_addr,
            network: info.network,
            version: info.version,
            channels: Buffer.from(info.channels, 'hex').toString('base64'),
            moniker: info.moniker,
            other: info.other,
        },
        application_version: {
            name: 'simapp',
            app_name: 'simd',
            version: node.chain.appVersion,
            git_commit: '0000000000000000000000000000000000000000',
            build_tags: 'netgo,ledger',
            go_version: 'go version go1.22.7 linux/amd64',
            build_deps: [],
            cosmos_sdk_version: 'v0.50.9',
        },
    };
}

/** `{plan:null}` when none (never a 404); `time` is always Go's zero time (protocols.md §10.5). */
function currentPlan(ctx: RestContext) {
    const plan = ctx.node.chain.upgrade;
    return plan
        ? {
              name: plan.name,
              time: ZERO_TIME,
              height: String(plan.height),
              info: plan.info,
              upgraded_client_state: null,
          }
        : null;
}

function validatorSet(ctx: RestContext): SimResponse {
    const set = ctx.node.validatorSet(ctx.node.height) ?? [];
    return json(200, {
        block_height: String(ctx.node.height),
        validators: set.map((e) => ({
            address: e.validator.valcons,
            pub_key: { '@type': '/cosmos.crypto.ed25519.PubKey', key: e.validator.consensusPubkeyB64 },
            voting_power: String(e.power),
            proposer_priority: String(e.proposerPriority),
        })),
        pagination: { next_key: null, total: String(set.length) },
    });
}
