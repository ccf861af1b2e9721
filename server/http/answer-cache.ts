import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { companyScope } from '../auth/actor';

/** Past its freshness, an answer may still be served this many times as long while it is rebuilt. */
const STALE_FACTOR = 4;
/** Bounds the memory a caller can make it hold with distinct query strings. */
const MAX_BYTES = 64 * 1024 * 1024;

const REBUILD_HEADER = 'x-answer-cache-rebuild';
/** Smaller answers are sent as they are: their gzip saves less than its headers and a turn of the thread pool. */
const GZIP_MIN_BYTES = 1024;
const gzipAsync = promisify(gzip);

/** Whether an Accept-Encoding header takes gzip: by name, else by `*`, with a q above 0. */
function acceptsGzip(header: string | undefined): boolean {
    const q = new Map<string, number>();
    for (const part of (header ?? '').toLowerCase().split(',')) {
        const [coding = '', ...params] = part.split(';').map((s) => s.trim());
        const weight = params.find((p) => p.startsWith('q='));
        q.set(coding, weight ? Number(weight.slice(2)) : 1);
    }
    return (q.get('gzip') ?? q.get('*') ?? 0) > 0;
}

interface Entry {
    /** Encoded once: a list of a few hundred kB costs more to turn into bytes than to send. */
    payload: Buffer;
    /**
     * The payload gzipped, once, off the event loop; until it is ready the payload goes as it is. A 280 kB page of
     * configurations is ~12 times smaller (what a console fetches every few seconds), and sending it cost more CPU
     * than serving it.
     */
    gzipped: Buffer | null;
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
 * An expired answer is served once more while a request made here, with the caller's token, rebuilds it: when the
 * caller that found it expired rebuilt it itself, that caller waited behind the engine's writes, and at 50 polling
 * requests a second those waits were the p99 (60 ms against 1 ms for the rest). Past the stale window, or after a
 * write, there is nothing to serve: the callers wait for the one answer being built instead of each building the
 * same answer (after a write, 50 polling consoles built 50 copies at once).
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
        if (e) bytes -= e.payload.length + (e.gzipped?.length ?? 0);
        entries.delete(key);
    };
    /** Frees what can no longer be served: entries past the stale window. */
    const sweep = (now: number) => {
        for (const [key, e] of entries) if (now - e.storedAt >= staleMs) drop(key);
    };

    /** Marks the requests made here to rebuild an answer; unguessable, so no client can skip the cache with it. */
    const rebuildNonce = randomUUID();
    const rebuildInBackground = (req: FastifyRequest, entry: Entry) => {
        entry.refreshing = true;
        app.inject({
            method: 'GET',
            url: req.url,
            headers: { authorization: req.headers.authorization ?? '', [REBUILD_HEADER]: rebuildNonce },
        })
            .catch(() => {})
            // Kept or not (an error, a token that ended meanwhile), the next caller past freshness may try again.
            .finally(() => {
                entry.refreshing = false;
            });
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
        return performance.now() - entry.storedAt < staleMs ? entry : undefined;
    };

    app.addHook('preHandler', async (req, reply) => {
        if (!req.routeOptions.config.cacheAnswer || req.method !== 'GET' || !req.actor) return;
        // Built or served from here, the answer may come gzipped or not, by the caller's Accept-Encoding.
        reply.header('Vary', 'Accept-Encoding');
        const key = keyOf(req);
        const rebuild = req.headers[REBUILD_HEADER] === rebuildNonce;
        let entry = rebuild ? undefined : servable(key);
        if (entry && !entry.refreshing && performance.now() - entry.storedAt >= freshMs)
            rebuildInBackground(req, entry);
        const pending = rebuild ? undefined : building.get(key);
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
            if (entry.gzipped && acceptsGzip(req.headers['accept-encoding'])) {
                reply.header('Content-Encoding', 'gzip');
                return reply.send(entry.gzipped);
            }
            return reply.send(entry.payload);
        }
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
                const entry: Entry = {
                    payload: encoded,
                    gzipped: null,
                    contentRange: typeof contentRange === 'string' ? contentRange : undefined,
                    storedAt: now,
                    generation: fill.generation,
                    refreshing: false,
                };
                entries.set(fill.key, entry);
                bytes += encoded.length;
                if (encoded.length >= GZIP_MIN_BYTES) {
                    gzipAsync(encoded).then(
                        (gzipped) => {
                            // Dropped or replaced meanwhile (its bytes no longer counted), or past the bound: not kept.
                            if (entries.get(fill.key) !== entry || bytes + gzipped.length > MAX_BYTES) return;
                            entry.gzipped = gzipped;
                            bytes += gzipped.length;
                        },
                        () => {}
                    );
                }
            }
        }
        return payload;
    });

    app.addHook('onResponse', async (req) => {
        req.answerCache?.built();
    });
}
