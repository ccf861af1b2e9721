import { hkdfSync } from 'node:crypto';

/** Separate keys per purpose, all derived from the one application secret. */
export function deriveKey(appSecret: string, purpose: 'access-token' | 'secrets-at-rest'): Uint8Array {
    return new Uint8Array(hkdfSync('sha256', appSecret, 'node-monitor', purpose, 32));
}
