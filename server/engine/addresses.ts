import { ripemd160, sha256 } from '@cosmjs/crypto';
import { fromBase64, fromBech32, toBech32, toHex } from '@cosmjs/encoding';
import { accountPrefixOfValoper, isValoperPrefix, valconsPrefixOf } from '../../common/bech32-prefixes';

/**
 * Address conversions (protocols.md §3). The CometBFT address of a consensus key is sha256(key)[0:20] for
 * ed25519 and ripemd160(sha256(key)) for secp256k1; RPC shows it as uppercase hex, the SDK as `<prefix>valcons`
 * bech32. Consensus addresses cannot be derived from a valoper: the key must be fetched first.
 */

export interface ConsensusAddress {
    /** 20 bytes as uppercase hex, as in RPC signatures and /validators. */
    hex: string;
    valcons: string;
}

/**
 * Cosmos addresses fit BIP-173's 90 characters, but @cosmjs/encoding 0.39's default limit
 * (Infinity) is rejected by its bech32 backend, so an explicit limit is required.
 */
const BECH32_LIMIT = 256;

/** Decodes a valoper, checking its checksum and prefix. */
export function decodeValoper(valoper: string): { prefix: string; data: Uint8Array } {
    let decoded: { prefix: string; data: Uint8Array };
    try {
        decoded = fromBech32(valoper.trim(), BECH32_LIMIT);
    } catch (err) {
        throw new Error(
            `${valoper} is not a valid bech32 address (${err instanceof Error ? err.message : 'decode error'})`
        );
    }
    if (!isValoperPrefix(decoded.prefix))
        throw new Error(`${valoper} is not a valoper address (prefix ${decoded.prefix})`);
    return decoded;
}

/** `cosmosvaloper1…` → `cosmos1…` (same payload, account prefix). */
export function valoperToAccount(valoper: string): string {
    const { prefix, data } = decodeValoper(valoper);
    return toBech32(accountPrefixOfValoper(prefix), data, BECH32_LIMIT);
}

/** The validator's own account (the voter): the valoper's bytes under the chain's account prefix (§10.1). */
export function operatorAccount(valoper: string, bech32Prefix: string | null): string {
    const { data } = decodeValoper(valoper);
    return toBech32(accountPrefix(valoper, bech32Prefix), data, BECH32_LIMIT);
}

/** The chain's account prefix, else the one the valoper's own prefix belongs to. */
export function accountPrefix(valoper: string, bech32Prefix: string | null): string {
    if (bech32Prefix) return bech32Prefix;
    return accountPrefixOfValoper(decodeValoper(valoper).prefix);
}

/** Accepts an Any type URL (`/cosmos.crypto.ed25519.PubKey`) or an amino type (`tendermint/PubKeyEd25519`). */
function keyKind(type: string): 'ed25519' | 'secp256k1' | null {
    const t = type.toLowerCase();
    if (t.includes('ed25519')) return 'ed25519';
    // eth_secp256k1 keys are account keys; CometBFT consensus keys are plain secp256k1.
    if (t.includes('secp256k1') && !t.includes('eth')) return 'secp256k1';
    return null;
}

/** 20-byte CometBFT address of a consensus public key. */
export function consensusAddressBytes(pubkey: { type: string; key: string }): Uint8Array {
    const kind = keyKind(pubkey.type);
    if (!kind) throw new Error(`consensus key type ${pubkey.type} is not supported (only ed25519 and secp256k1)`);
    let bytes: Uint8Array;
    try {
        bytes = fromBase64(pubkey.key);
    } catch {
        throw new Error('consensus key is not valid base64');
    }
    if (kind === 'ed25519') {
        if (bytes.length !== 32) throw new Error(`ed25519 consensus key has ${bytes.length} bytes, expected 32`);
        return sha256(bytes).slice(0, 20);
    }
    if (bytes.length !== 33) throw new Error(`secp256k1 consensus key has ${bytes.length} bytes, expected 33`);
    return ripemd160(sha256(bytes));
}

/** Consensus key → uppercase hex and `<prefix>valcons` address (or the chain's own consensus prefix). */
export function consensusAddress(pubkey: { type: string; key: string }, prefix: string): ConsensusAddress {
    const addr = consensusAddressBytes(pubkey);
    return { hex: toHex(addr).toUpperCase(), valcons: toBech32(valconsPrefixOf(prefix), addr, BECH32_LIMIT) };
}
