import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config';
import { requestPathConnection } from '../db/redis';
import { SharedObservations } from '../engine/observations';
import { MemorySendLog, type SendLog } from '../notify/pacing';
import { RedisSendLog } from '../notify/pacing-redis';
import { FAILURE_WINDOW_MS, LoginLocks, type LoginLockStore } from '../services/login-locks';
import { RedisLoginLocks } from '../services/login-locks-redis';
import { SharedRotations } from '../services/rotations-redis';
import type { Session } from '../services/sessions';

/**
 * The short-lived state every process must agree on, in this process's memory (the embedded profile) or in Redis
 * (the cluster profile): the one place that picks. Each part has one interface and the two implementations.
 */
export interface SharedState {
    /** The cluster's Redis connection for this state; null in the embedded profile. */
    redis: Redis | null;
    /** Sign-in locks and the failure runs of unknown usernames (server/services/login-locks.ts). */
    loginLocks: LoginLockStore;
    /** When each notification channel was sent messages, for its pacing (server/notify/pacing.ts). */
    sendLog: SendLog;
    /**
     * Every monitor's latest check, whichever worker ran it, for /metrics (server/engine/observations.ts); null in the
     * embedded profile, where the engine's memory holds them.
     */
    observations: SharedObservations | null;
    /**
     * Refresh-token rotations other processes answered within the reuse grace (server/services/sessions.ts); null in
     * the embedded profile, where the one process's memory holds them.
     */
    rotations: SharedRotations<Session> | null;
    close(): Promise<void>;
}

export function createSharedState(
    config: Pick<AppConfig, 'redisUrl'>,
    log: FastifyBaseLogger,
    /** Seals what is kept in Redis that opens a session. */
    secretsAtRest: Uint8Array
): SharedState {
    if (!config.redisUrl) {
        return {
            redis: null,
            loginLocks: new LoginLocks(FAILURE_WINDOW_MS),
            sendLog: new MemorySendLog(),
            observations: null,
            rotations: null,
            close: async () => {},
        };
    }
    const redis = new Redis(requestPathConnection(config.redisUrl));
    redis.on('error', (err) => log.warn(`Shared state: ${err.message}`));
    return {
        redis,
        loginLocks: new RedisLoginLocks(redis, FAILURE_WINDOW_MS),
        sendLog: new RedisSendLog(redis),
        observations: new SharedObservations(redis),
        rotations: new SharedRotations<Session>(redis, secretsAtRest),
        close: async () => {
            redis.disconnect();
        },
    };
}
