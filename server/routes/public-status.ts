import rateLimit from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PublicStatusAnswer } from '../../common/status-pages';
import type { Db } from '../db/client';
import { ApiError } from '../errors';
import { findBySlug, opensPage, type PageWithMonitors } from '../status-pages/pages';
import { publicView } from '../status-pages/public-view';
import { statusBadge, statusFeed, statusHtml } from '../status-pages/render';
import { answers } from './responses/answers';
import { publicStatusAnswer, svgBadge } from './responses/status-pages';

/** How long a page's answer is served from memory: a flood of visitors costs one read per page per interval. */
const CACHE_MS = 10_000;
const CACHE_MAX = 1000;

const slugParams = z.object({ slug: z.string().max(100, 'slug is too long') });
const keyQuery = z.object({ key: z.string().max(200, 'key is too long').optional() });

/**
 * What visitors read without signing in: a page's status as JSON, an SVG badge, the HTML page and its Atom feed.
 * A private page answers only with its key and otherwise exactly as an unknown slug does (404), so its existence
 * does not leak; answers come from a short cache and each address has a rate limit, so public traffic costs the
 * engine and the console next to nothing.
 */
export const publicStatusRoutes: FastifyPluginAsyncZod = async (app) => {
    const { db, config, keys } = app.ctx;
    const views = new ViewCache(db);
    // A page turned private, given a new key or other monitors is read anew at once; states age out in CACHE_MS.
    const unsubscribe = app.ctx.events.subscribe((e) => {
        if (e.name.startsWith('STATUS_PAGE_') || e.name === 'INCIDENT_UPDATE_POSTED') views.clear();
    });
    app.addHook('onClose', async () => unsubscribe());
    await app.register(rateLimit, { global: false });
    const limited = {
        config: {
            rateLimit: {
                max: config.statusRateLimitPerMinute,
                timeWindow: 60_000,
                keyGenerator: (req: FastifyRequest) => `status:${req.ip}`,
                errorResponseBuilder: (_req: unknown, ctx: { after: string }) => ({
                    statusCode: 429,
                    message: `Too many requests, try again in ${ctx.after}`,
                }),
            },
        },
    };

    async function open(req: FastifyRequest<{ Params: { slug: string }; Querystring: { key?: string } }>) {
        const found = await views.get(req.params.slug);
        if (!found || !opensPage(keys.secretsAtRest, found.page.row, req.query.key)) {
            throw new ApiError(404, 'Status page not found');
        }
        return found;
    }
    const publicCache = (reply: FastifyReply, isPublic: boolean) =>
        reply.header('Cache-Control', isPublic ? `public, max-age=${CACHE_MS / 1000}` : 'private, no-store');
    const base = (req: FastifyRequest) => `${req.protocol}://${req.host}`;
    const withKey = (req: FastifyRequest<{ Querystring: { key?: string } }>) =>
        req.query.key ? `?key=${encodeURIComponent(req.query.key)}` : '';

    app.get(
        '/api/public/status/:slug',
        {
            ...limited,
            schema: {
                params: slugParams,
                querystring: keyQuery,
                response: answers({ 200: publicStatusAnswer }, 400, 404, 429),
            },
        },
        async (req, reply) => {
            const { page, view } = await open(req);
            publicCache(reply, page.row.isPublic);
            return view;
        }
    );
    app.get(
        '/api/public/status/:slug/badge.svg',
        {
            ...limited,
            schema: {
                params: slugParams,
                querystring: keyQuery,
                response: { ...answers({}, 400, 404, 429), 200: svgBadge },
            },
        },
        async (req, reply) => {
            const { page, view } = await open(req);
            return publicCache(reply, page.row.isPublic)
                .type('image/svg+xml; charset=utf-8')
                .send(statusBadge(view.status));
        }
    );
    // The human page and its feed live beside the console's routes, not under /api: they are not part of the API
    // document, and the single-page app's fallback never sees them.
    app.get(
        '/status/:slug',
        { ...limited, schema: { hide: true, params: slugParams, querystring: keyQuery } },
        async (req, reply) => {
            const { page, view } = await open(req);
            const feed = `/status/${page.row.slug}/feed.atom${withKey(req)}`;
            return publicCache(reply, page.row.isPublic).type('text/html; charset=utf-8').send(statusHtml(view, feed));
        }
    );
    app.get(
        '/status/:slug/feed.atom',
        { ...limited, schema: { hide: true, params: slugParams, querystring: keyQuery } },
        async (req, reply) => {
            const { page, view } = await open(req);
            const pageUrl = `${base(req)}/status/${page.row.slug}`;
            return publicCache(reply, page.row.isPublic)
                .type('application/atom+xml; charset=utf-8')
                .send(statusFeed(view, pageUrl, `${pageUrl}/feed.atom${withKey(req)}`));
        }
    );
};

interface Cached {
    at: number;
    found: { page: PageWithMonitors; view: PublicStatusAnswer } | null;
    pending?: Promise<Cached['found']>;
}

/** Each page's view for CACHE_MS; concurrent misses share one read, and unknown slugs are remembered too. */
class ViewCache {
    private readonly entries = new Map<string, Cached>();

    constructor(private readonly db: Db) {}

    clear(): void {
        this.entries.clear();
    }

    async get(slug: string): Promise<Cached['found']> {
        const now = Date.now();
        const hit = this.entries.get(slug);
        if (hit?.pending) return hit.pending;
        if (hit && now - hit.at < CACHE_MS) return hit.found;
        if (this.entries.size >= CACHE_MAX) this.entries.clear();
        const entry: Cached = { at: now, found: null };
        entry.pending = this.load(slug).finally(() => {
            entry.pending = undefined;
        });
        this.entries.set(slug, entry);
        try {
            entry.found = await entry.pending;
            entry.at = Date.now();
        } catch (err) {
            this.entries.delete(slug);
            throw err;
        }
        return entry.found;
    }

    private async load(slug: string): Promise<Cached['found']> {
        if (!/^[a-z0-9-]{3,40}$/.test(slug)) return null;
        const page = await findBySlug(this.db, slug);
        return page ? { page, view: await publicView(this.db, page) } : null;
    }
}
