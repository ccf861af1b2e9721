import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt parameters; a stored hash made with other parameters is rehashed at the next successful login. */
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;
/** Hashing is memory-hard on purpose; cap how many run at once so a login flood cannot exhaust memory. */
const MAX_CONCURRENT = 4;

let running = 0;
const waiting: (() => void)[] = [];

async function withSlot<T>(fn: () => Promise<T>): Promise<T> {
    if (running >= MAX_CONCURRENT) await new Promise<void>((r) => waiting.push(r));
    running++;
    try {
        return await fn();
    } finally {
        running--;
        waiting.shift()?.();
    }
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
    return withSlot(
        () =>
            new Promise((resolve, reject) =>
                scrypt(password.normalize('NFKC'), salt, KEYLEN, { N: n, r, p, maxmem: MAXMEM }, (err, key) =>
                    err ? reject(err) : resolve(key)
                )
            )
    );
}

export async function hashPassword(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, N, R, P);
    return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
    const [alg, n, r, p, salt, hash] = stored.split('$');
    if (alg !== 'scrypt' || !salt || !hash) return false;
    const expected = Buffer.from(hash, 'base64');
    const key = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
    return key.length === expected.length && timingSafeEqual(key, expected);
}

export function needsRehash(stored: string): boolean {
    return !stored.startsWith(`scrypt$${N}$${R}$${P}$`);
}

/** A hash of nothing anyone knows, verified for unknown usernames so both answers take the same time. */
export const DUMMY_HASH = `scrypt$${N}$${R}$${P}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(KEYLEN).toString('base64')}`;
