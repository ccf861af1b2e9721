import { sql } from 'drizzle-orm';
import Fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { registerAnswerCache } from './http/answer-cache';
import { registerAuthGuard } from './auth/guard';
import { deriveKey } from './auth/keys';
import { BackgroundParts } from './assembly/background';
import { EventRelay } from './assembly/event-relay';
import { revocationsOf } from './services/sessions';
import { createSharedState } from './assembly/shared-state';
import { WorkerRegistry } from './assembly/workers';
import { ensureFirstAdmin } from './auth/bootstrap';
import { ChainDirectory } from './chains/directory';
import { createHttpClient } from './clients/http';
import type { AppConfig } from './config';
import type { AppContext } from './context';
import { openDatabase } from './db/client';
import { scheduleMaintenance } from './db/maintenance';
import { DatabaseHealth } from './db/outage';
import { sealStoredCredentials } from './db/seal-credentials';
import { EgressPolicies } from './clients/egress-policies';
import { EventBus } from './events';
import { frameworkErrors, registerErrorHandling } from './http/http-errors';
import { registerInputLimits } from './http/input-limits';
import { createLogger } from './logger';
import { LogHub } from './logs/hub';
import { ActiveSilences } from './silences/active';
import { registerOpenApi } from './http/openapi';
import { registerRoutes } from './routes';
import { responseSerializer } from './routes/responses/serializer';
import { registerSecurityHeaders } from './http/security-headers';
import { registerWriteGeneration } from './http/write-generation';
import { registerUi } from './http/ui';

export interface BuildOptions {
    /** Where log lines go besides the log hub (default stdout). */
    logStream?: NodeJS.WritableStream;
    /** For `memory://` only: a PGlite data directory dump to start from (tests reuse one migrated database). */
    memoryTemplate?: Blob;
}

export interface BuiltApp {
    app: FastifyInstance;
    /** Set when this start created the first super admin with a generated password, to be printed once. */
    firstAdmin: { username: string; password: string } | null;
}

/** Builds the whole server from a typed config: database, API, UI; `app.close()` releases everything. */
export async function buildApp(config: AppConfig, opts: BuildOptions = {}): Promise<BuiltApp> {
    const logHub = new LogHub();
    const database = await openDatabase({ ...config, memoryTemplate: opts.memoryTemplate });
    const app = Fastify({
        loggerInstance: createLogger(config, logHub, opts.logStream) as FastifyBaseLogger,
        bodyLimit: 1024 * 1024,
        // Requests are logged once, by the onResponse hook below, without headers or bodies.
        logController: new LogController({ disableRequestLogging: true }),
        routerOptions: { maxParamLength: 200 },
        // Only the listed proxies' X-Forwarded-For names the client; without the list every peer is the client.
        trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
        frameworkErrors,
    });
    const http = createHttpClient({ allowPrivate: config.allowPrivateTargets });
    const keys = {
        accessToken: deriveKey(config.appSecret, 'access-token'),
        secretsAtRest: deriveKey(config.appSecret, 'secrets-at-rest'),
    };
    const ctx: AppContext = {
        config,
        db: database.db,
        dbKind: database.kind,
        dbHealth: new DatabaseHealth(app.log, () => database.db.execute(sql`select 1`)),
        events: new EventBus(),
        logHub,
        engine: null,
        workers: new WorkerRegistry(config.redisUrl, app.log),
        watchdog: null as unknown as AppContext['watchdog'],
        silences: new ActiveSilences(database.db),
        http,
        egress: new EgressPolicies(database.db),
        chains: new ChainDirectory(
            http,
            { mainnet: config.chainDirectoryUrl, testnet: config.chainDirectoryTestnetUrl },
            app.log
        ),
        keys,
        sharedState: createSharedState(config, app.log, keys.secretsAtRest),
    };
    const background = new BackgroundParts(ctx, app.log);
    // The cluster profile: events and log lines of every process reach every other.
    const relay = config.redisUrl
        ? new EventRelay(ctx.events, logHub, config.redisUrl, app.log, config.role !== 'worker', revocationsOf(ctx))
        : null;
    ctx.watchdog = background.watchdog;
    app.decorate('ctx', ctx);
    const stopMaintenance = scheduleMaintenance(database, ctx.dbHealth, app.log);
    // One hook, so the engine stops (and flushes) before the database closes.
    app.addHook('onClose', async () => {
        await ctx.workers.stop();
        ctx.silences.stop();
        await background.stop();
        await relay?.stop();
        await ctx.sharedState.close();
        stopMaintenance();
        ctx.dbHealth.stop();
        await database.close();
    });
    try {
        app.setValidatorCompiler(validatorCompiler);
        app.setSerializerCompiler(
            responseSerializer(
                (route, fields) =>
                    app.log.warn(
                        `Answer of ${route} left out fields its response schema does not list: ${fields.join(', ')}`
                    ),
                (route, err) => app.log.error({ err }, `Answer of ${route} does not match its response schema`)
            )
        );
        registerErrorHandling(app);
        registerSecurityHeaders(app);
        registerWriteGeneration(app, ctx.sharedState.redis);
        registerAuthGuard(app, config.answerCacheMs);
        registerInputLimits(app);
        registerAnswerCache(app, config.answerCacheMs);
        app.addHook('onResponse', async (req, reply) => {
            if (reply.statusCode >= 500)
                req.log.error(`${req.method} ${req.url.split('?')[0]} answered ${reply.statusCode}`);
            else if (reply.statusCode === 403 && req.actor) {
                // Authorization failures (security item 14): who tried what; the 404s of foreign rows look like any 404.
                req.log.warn(`${req.method} ${req.url.split('?')[0]} refused to user ${req.actor.username} (403)`);
            } else if (req.url.startsWith('/api/') && req.method !== 'GET') {
                req.log.info(`${req.method} ${req.url.split('?')[0]} → ${reply.statusCode}`);
            }
        });
        await registerOpenApi(app);
        await registerRoutes(app);
        await registerUi(app);
        const firstAdmin = await ensureFirstAdmin(ctx);
        const sealed = await sealStoredCredentials(ctx.db, ctx.keys.secretsAtRest);
        if (sealed > 0)
            app.log.info(`Encrypted ${sealed} credentials saved in clear (address passwords, webhook headers)`);
        await app.ready();
        await ctx.silences.start(ctx.events, (err) => {
            if (!ctx.dbHealth.failed(err, 'the silences'))
                app.log.warn(`Reading silences failed: ${(err as Error).message}`);
        });
        await relay?.start();
        if (config.engineEnabled) {
            await background.start();
            await ctx.workers.join(() => ctx.engine?.running ?? false);
        }
        return { app, firstAdmin };
    } catch (err) {
        await app.close();
        throw err;
    }
}
