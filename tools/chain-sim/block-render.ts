// Renders a block in the two JSON dialects (protocols.md §0): CometBFT RPC (uppercase hex, numeric
// block_id_flag, `parts`, absent address "") and Cosmos REST (base64, enum names, `part_set_header`, absent null).
import type { Commit, SimBlock, SimChain } from './chain';
import { hexToB64, rfc3339Nano, ZERO_TIME } from './format';

export type Dialect = 'rpc' | 'rest';

const FLAG_NAMES = ['BLOCK_ID_FLAG_UNKNOWN', 'BLOCK_ID_FLAG_ABSENT', 'BLOCK_ID_FLAG_COMMIT', 'BLOCK_ID_FLAG_NIL'];
const EMPTY_SHA = 'E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855';
const CONSENSUS_HASH = '048091BC7DDC283F77BFBF91D73C44DA58C3DF8A9CBC867405D8B7F3DAADA22F';

function bytes(hex: string, dialect: Dialect): string {
    return dialect === 'rpc' ? hex : hexToB64(hex);
}

export function blockId(hash: string, partsHash: string, dialect: Dialect) {
    // The genesis "previous block" is the zero BlockID: empty hash and a part set of 0.
    const parts = { total: hash ? 1 : 0, hash: bytes(partsHash, dialect) };
    return dialect === 'rpc'
        ? { hash: bytes(hash, dialect), parts }
        : { hash: bytes(hash, dialect), part_set_header: parts };
}

export function renderHeader(
    block: SimBlock,
    chainId: string,
    nextValidatorsHash: string,
    shiftNs: bigint,
    dialect: Dialect
) {
    return {
        // CometBFT omits `app` when it is 0; the gateway emits defaults.
        version: dialect === 'rpc' ? { block: '11' } : { block: '11', app: '0' },
        chain_id: chainId,
        height: String(block.height),
        time: rfc3339Nano(block.timeNs + shiftNs),
        last_block_id: blockId(block.lastBlockHash, block.lastPartsHash, dialect),
        last_commit_hash: bytes(block.lastCommitHash, dialect),
        data_hash: bytes(EMPTY_SHA, dialect),
        validators_hash: bytes(block.validatorsHash, dialect),
        next_validators_hash: bytes(nextValidatorsHash, dialect),
        consensus_hash: bytes(CONSENSUS_HASH, dialect),
        app_hash: bytes(block.appHash, dialect),
        last_results_hash: bytes(EMPTY_SHA, dialect),
        evidence_hash: bytes(EMPTY_SHA, dialect),
        proposer_address: bytes(block.proposerHex, dialect),
    };
}

export function renderCommit(commit: Commit, shiftNs: bigint, dialect: Dialect) {
    return {
        height: String(commit.height),
        round: 0,
        block_id: blockId(commit.blockHash, commit.partsHash, dialect),
        signatures: commit.signatures.map((sig) => ({
            block_id_flag: dialect === 'rpc' ? sig.flag : FLAG_NAMES[sig.flag],
            validator_address: sig.validatorHex ? bytes(sig.validatorHex, dialect) : dialect === 'rpc' ? '' : null,
            timestamp: sig.timestampNs === null ? ZERO_TIME : rfc3339Nano(sig.timestampNs + shiftNs),
            signature: sig.signature,
        })),
    };
}

export function renderBlock(
    block: SimBlock,
    chainId: string,
    nextValidatorsHash: string,
    shiftNs: bigint,
    dialect: Dialect
) {
    return {
        header: renderHeader(block, chainId, nextValidatorsHash, shiftNs, dialect),
        data: { txs: [] as string[] },
        evidence: { evidence: [] as unknown[] },
        last_commit: renderCommit(block.lastCommit, shiftNs, dialect),
    };
}

/** next_validators_hash: the set hash of H+1 when known, else this block's (the set rarely changes). */
export function nextValidatorsHash(chain: SimChain, block: SimBlock): string {
    return chain.block(block.height + 1)?.validatorsHash ?? block.validatorsHash;
}
