import type { ChainDirectory } from './chains/directory';
import type { HttpClient } from './clients/http';
import type { AppConfig } from './config';
import type { Database, Db } from './db/client';
import type { DatabaseHealth } from './db/outage';
import type { Engine } from './engine/engine';
import type { Watchdog } from './engine/watchdog';
import type { SharedState } from './assembly/shared-state';
import type { WorkerRegistry } from './assembly/workers';
import type { EgressPolicies } from './clients/egress-policies';
import type { EventBus } from './events';
import type { LogHub } from './logs/hub';
import type { ActiveSilences } from './silences/active';

/** What every route and background part of the app shares; decorated on the Fastify instance as `ctx`. */
export interface AppContext {
    config: AppConfig;
    db: Db;
    dbKind: Database['kind'];
    /** Whether the database can read and write; every part that meets a database failure reports it here. */
    dbHealth: DatabaseHealth;
    events: EventBus;
    logHub: LogHub;
    /** The one egress client for every outbound request. */
    http: HttpClient;
    /** Each company's allowed private networks, to pass with every request made for that company. */
    egress: EgressPolicies;
    chains: ChainDirectory;
    /** Null when ENGINE_ENABLED is off (API-only process, most tests). */
    engine: Engine | null;
    /** The live processes that run checks (this one, or the cluster's workers), for /api/health. */
    workers: WorkerRegistry;
    /** Whether the engine checks on time and the outbox drains; sends the heartbeat. */
    watchdog: Watchdog;
    /** Silences and maintenance windows on now or later, by what they cover (server/silences/active.ts). */
    silences: ActiveSilences;
    /** Short-lived state shared by every process in the cluster profile, in memory otherwise (assembly/shared-state.ts). */
    sharedState: SharedState;
    keys: { accessToken: Uint8Array; secretsAtRest: Uint8Array };
}

declare module 'fastify' {
    interface FastifyInstance {
        ctx: AppContext;
    }
    interface FastifyRequest {
        actor: import('./auth/actor').Actor;
    }
}
