import type { FastifyInstance, FastifyRequest } from 'fastify';
import { companyScope } from './auth/actor';

/** Past its freshness, an answer may still be served this many times as long while one caller rebuilds it. */
const STALE_FACTOR = 4;
/** Bounds the memory a caller can make it hold with distinct query strings. */
const MAX_BYTES = 64 * 1024 * 1024;

interface Entry {
    /** Encoded once: a list of a few hundred kB costs more to turn into bytes than to send. */
    payload: Buffer;
    contentRange: string | undefined;
    storedAt: number;
    generation: number;
    refreshing: boolean;
}

declare module 'fastify' {
    interface FastifyContextConfig {
        /** Answer from the shared answer cache (read-only lists every open console polls). */
        cacheAnswer?: boolean;
    }
    interface FastifyRequest {
        answerCache?: { key: string; generation: number; built: () => void };
    }
}

/**
 * Every open console polls the dashboard lists, and all admins of a company get the same answer, which for
 * `/api/configurations` is every configuration with its servers and monitors. Building it per request made
 * 50 polling consoles queue behind each other and the engine's writes; here one caller per company and
 * second builds it and the others get that answer as serialized.
 *
 * Staleness is bounded: engine results show at most ~1 s later than they are saved (they are batched anyway),
 * and any write through the API drops every cached answer at once, so an operator always reads their own edit.
 * While one caller rebuilds an expired answer, the others are served the previous one for at most a few seconds.
 * When there is none to serve (after a write, or a rebuild slower than the stale window), they wait for the one
 * being built instead of each building the same answer: after a write, 50 polling consoles built 50 copies at once.
 *
 * Still needed once the lists were made cheap (bench:api, 1,000 configurations, 20,000 monitors, engine on): without
 * it, 50 requests a second for the super admin's first page of configurations cost 24 ms of server CPU each and
 * saturated the server (p50 1.1 s, p99 4.5 s); served from here, p50 1 ms.
 */
export function registerAnswerCache(app: FastifyInstance, freshMs: number): void {
    if (freshMs <= 0) return;
    const staleMs = freshMs * STALE_FACTOR;
    const entries = new Map<string, Entry>();
    /** Answers being built, by key: settled when the request building one has been answered, kept or not. */
    const building = new Map<string, { generation: number; done: Promise<void> }>();
    let bytes = 0;
    let generation = app.writes.generation;
    const drop = (key: string) => {
        const e = entries.get(key);
        if (e) bytes -= e.payload.length;
        entries.delete(key);
    };
    /** Frees what can no longer be served: entries past the stale window. */
    const sweep = (now: number) => {
        for (const [key, e] of entries) if (now - e.storedAt >= staleMs) drop(key);
    };

    const keyOf = (req: FastifyRequest) =>
        `${companyScope(req.actor)}|${req.actor.isAdmin}|${req.actor.isSuperAdmin}|${req.url}`;

    /** The entry this request may be answered with, if any. */
    const servable = (key: string): Entry | undefined => {
        if (generation !== app.writes.generation) {
            // Nothing built before a write is served after it.
            generation = app.writes.generation;
            entries.clear();
            bytes = 0;
        }
        const entry = entries.get(key);
        if (entry?.generation !== app.writes.generation) return undefined;
        const age = performance.now() - entry.storedAt;
        return age < freshMs || (age < staleMs && entry.refreshing) ? entry : undefined;
    };

    app.addHook('preHandler', async (req, reply) => {
        if (!req.routeOptions.config.cacheAnswer || req.method !== 'GET' || !req.actor) return;
        const key = keyOf(req);
        let entry = servable(key);
        const pending = building.get(key);
        if (!entry && pending?.generation === app.writes.generation) {
            // Bounded: a build whose answer never went out (a dropped connection) holds no one for long.
            let timer: NodeJS.Timeout | undefined;
            await Promise.race([pending.done, new Promise((r) => (timer = setTimeout(r, staleMs)))]);
            clearTimeout(timer);
            entry = servable(key);
        }
        if (entry) {
            if (entry.contentRange) reply.header('Content-Range', entry.contentRange);
            reply.header('Content-Type', 'application/json; charset=utf-8');
            return reply.send(entry.payload);
        }
        const stale = entries.get(key);
        if (stale?.generation === app.writes.generation) stale.refreshing = true;
        let built = () => {};
        const done = new Promise<void>((resolve) => {
            built = resolve;
        });
        building.set(key, { generation: app.writes.generation, done });
        req.answerCache = {
            key,
            generation: app.writes.generation,
            built: () => {
                if (building.get(key)?.done === done) building.delete(key);
                built();
            },
        };
    });

    app.addHook('onSend', async (req, reply, payload) => {
        const fill = req.answerCache;
        if (!fill) return payload;
        // Whatever happens below, the callers waiting for this answer go on: with it if it is kept, else build it.
        queueMicrotask(fill.built);
        if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
        // An answer built across a write may predate it: it is not kept.
        drop(fill.key);
        if (fill.generation === app.writes.generation) {
            const now = performance.now();
            const encoded = Buffer.from(payload);
            if (bytes + encoded.length > MAX_BYTES) sweep(now);
            if (bytes + encoded.length <= MAX_BYTES) {
                const contentRange = reply.getHeader('Content-Range');
                entries.set(fill.key, {
                    payload: encoded,
                    contentRange: typeof contentRange === 'string' ? contentRange : undefined,
                    storedAt: now,
                    generation: fill.generation,
                    refreshing: false,
                });
                bytes += encoded.length;
            }
        }
        return payload;
    });

    app.addHook('onResponse', async (req) => {
        const fill = req.answerCache;
        if (!fill) return;
        const entry = entries.get(fill.key);
        // A failed rebuild lets the next caller try instead of leaving the stale answer in place.
        if (entry?.refreshing && entry.generation === fill.generation) entry.refreshing = false;
        fill.built();
    });
}
