import pino from 'pino';
import type { AppConfig } from './config';
import { ProbeServer } from './engine/probes';
import { ReadThread } from './engine/readers';

/**
 * A remote probe (ROLE=probe): reads targets for its location's queue and hands the raw readings back; it opens no
 * database, holds no secret and judges nothing (server/engine/probes.ts says what it holds and what its theft
 * allows). Started with REDIS_URL and PROBE_LOCATION only.
 */
export async function startProbe(config: AppConfig): Promise<{ stop(): Promise<void> }> {
    const log = pino({ level: config.logLevel });
    const reads = new ReadThread({ allowPrivate: config.allowPrivateTargets }, log);
    const server = new ProbeServer({
        redisUrl: config.redisUrl ?? '',
        location: config.probeLocation,
        read: reads.read,
        log,
    });
    // The queue's connections keep the process alive; the read thread alone does not (it is unreferenced).
    await server.start();
    await reads.warm();
    log.info(`Probe ${config.probeLocation} serves its reads`);
    return {
        async stop() {
            await server.stop();
            await reads.close();
        },
    };
}
