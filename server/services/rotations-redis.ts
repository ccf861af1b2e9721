import type { Redis } from 'ioredis';
import { decryptSecret, encryptSecret } from '../auth/secrets';

const KEY = 'node-monitor:rotation:';

/** A refresh token's rotation as another process answered it: from where, when, and the pair it issued. */
export interface DoneRotation<S> {
    ip: string;
    doneAt: number;
    session: S;
}

/**
 * The cluster profile's memory of refresh-token rotations within the reuse grace (sessions.ts): one browser's two
 * tabs may refresh through two `web` processes at once, and the second must get the pair the first was issued, not
 * end the sign-in as a replay. Kept in Redis for the grace only, sealed with the secrets-at-rest key: it holds a
 * live refresh token.
 */
export class SharedRotations<S> {
    constructor(
        private readonly redis: Redis,
        private readonly key: Uint8Array
    ) {}

    async get(hash: string): Promise<DoneRotation<S> | undefined> {
        const sealed = await this.redis.get(KEY + hash);
        return sealed ? (JSON.parse(decryptSecret(this.key, sealed)) as DoneRotation<S>) : undefined;
    }

    async set(hash: string, done: DoneRotation<S>, graceMs: number): Promise<void> {
        await this.redis.set(KEY + hash, encryptSecret(this.key, JSON.stringify(done)), 'PX', graceMs);
    }
}
