// Validator keys and the address forms derived from them (protocols.md §3).
// Keys are real ed25519 keypairs, but derived from a deterministic seed so that a given chain id always
// yields the same addresses: test failures are reproducible and demo URLs stay stable across restarts.
import { Ed25519, type Ed25519Keypair, sha256 } from '@cosmjs/crypto';
import { fromBase64, fromBech32, toBase64, toBech32, toHex, toUtf8 } from '@cosmjs/encoding';

/** Upper bound on address length; cosmjs' default (Infinity) is rejected by the bech32 library it uses. */
const BECH32_LIMIT = 1023;

export function decodeBech32(address: string): { prefix: string; data: Uint8Array } {
    return fromBech32(address, BECH32_LIMIT);
}

export interface ValidatorKeys {
    keypair: Ed25519Keypair;
    /** 20-byte consensus address: sha256(pubkey)[0:20]. */
    address: Uint8Array;
    /** Uppercase hex of `address`: the CometBFT RPC form. */
    hexAddress: string;
    /** Base64 of `address`: the REST (gRPC-gateway) form. */
    base64Address: string;
    consensusPubkeyB64: string;
    valcons: string;
    valoper: string;
    account: string;
}

/** CometBFT ed25519 address: the first 20 bytes of sha256(pubkey). */
export function pubkeyToAddress(pubkey: Uint8Array): Uint8Array {
    return sha256(pubkey).slice(0, 20);
}

export function pubkeyB64ToHexAddress(pubkeyB64: string): string {
    return toHex(pubkeyToAddress(fromBase64(pubkeyB64))).toUpperCase();
}

export function hexToValcons(hex: string, prefix: string): string {
    return toBech32(`${prefix}valcons`, hexToBytes(hex));
}

export function valconsToHex(valcons: string): string {
    return toHex(decodeBech32(valcons).data).toUpperCase();
}

/** valoper and account share the payload; only the human-readable part differs (protocols.md §3.2). */
export function valoperToAccount(valoper: string, prefix: string): string {
    return toBech32(prefix, decodeBech32(valoper).data);
}

export function hexToBytes(hex: string): Uint8Array {
    const out = new Uint8Array(hex.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    return out;
}

/**
 * Deterministic validator keys. The operator (account) key of a real validator is a secp256k1 key; the monitor
 * never needs it, so its 20-byte address is simply derived from the seed as well.
 */
export async function makeValidatorKeys(seed: string, prefix: string): Promise<ValidatorKeys> {
    const keypair = await Ed25519.makeKeypair(sha256(toUtf8(`consensus/${seed}`)));
    const address = pubkeyToAddress(keypair.pubkey);
    const operator = sha256(toUtf8(`operator/${seed}`)).slice(0, 20);
    return {
        keypair,
        address,
        hexAddress: toHex(address).toUpperCase(),
        base64Address: toBase64(address),
        consensusPubkeyB64: toBase64(keypair.pubkey),
        valcons: toBech32(`${prefix}valcons`, address),
        valoper: toBech32(`${prefix}valoper`, operator),
        account: toBech32(prefix, operator),
    };
}

/** A node's p2p id: hex of 20 bytes, lower case like CometBFT's node key id. */
export function nodeId(seed: string): string {
    return toHex(sha256(toUtf8(`node/${seed}`)).slice(0, 20));
}

/** Deterministic 32-byte hash (uppercase hex), for block, part-set and app hashes. */
export function fakeHash(...parts: (string | number | bigint)[]): string {
    return toHex(sha256(toUtf8(parts.join('/')))).toUpperCase();
}

export async function sign(message: string, keypair: Ed25519Keypair): Promise<string> {
    return toBase64(await Ed25519.createSignature(toUtf8(message), keypair));
}
