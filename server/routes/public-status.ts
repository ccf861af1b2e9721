import rateLimit from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PublicStatusAnswer } from '../../common/status-pages';
import type { Db } from '../db/client';
import { ApiError } from '../errors';
import { findBySlug, opensPage, type PageWithMonitors } from '../status-pages/pages';
import { byToken, confirmSubscription, subscribe, subscribeBody, unsubscribe } from '../status-pages/subscribers';
import { publicView } from '../status-pages/public-view';
import { escapeHtml, statusBadge, statusFeed, statusHtml } from '../status-pages/render';
import { answers } from './responses/answers';
import { publicStatusAnswer, svgBadge } from './responses/status-pages';
import { rateCounts } from '../http/rate-counts';

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
    const stopListening = app.ctx.events.subscribe((e) => {
        if (e.name.startsWith('STATUS_PAGE_') || e.name === 'INCIDENT_UPDATE_POSTED') views.clear();
    });
    app.addHook('onClose', async () => stopListening());
    // A Redis restart must not take the status pages down with it: their limit is skipped while it is gone.
    await app.register(rateLimit, { global: false, skipOnError: true, ...rateCounts(app) });
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
            const { page, view, rendered } = await open(req);
            // Sent as the string it was rendered to once per CACHE_MS: a flood re-serializes nothing.
            return publicCache(reply, page.row.isPublic)
                .type('application/json; charset=utf-8')
                .send(rendered('json', () => JSON.stringify(publicStatusAnswer.parse(view))));
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
            const { page, view, rendered } = await open(req);
            return publicCache(reply, page.row.isPublic)
                .type('image/svg+xml; charset=utf-8')
                .send(rendered('badge', () => statusBadge(view.status)));
        }
    );
    // The human page and its feed live beside the console's routes, not under /api: they are not part of the API
    // document, and the single-page app's fallback never sees them.
    app.get(
        '/status/:slug',
        { ...limited, schema: { hide: true, params: slugParams, querystring: keyQuery } },
        async (req, reply) => {
            const { page, view, rendered } = await open(req);
            // Only a private page's links carry the key (the one valid key: one more rendering, not one per query).
            const key = page.row.isPublic ? '' : withKey(req);
            const feed = `/status/${page.row.slug}/feed.atom${key}`;
            const form = `/status/${page.row.slug}/subscribe${key}`;
            return publicCache(reply, page.row.isPublic)
                .type('text/html; charset=utf-8')
                .send(rendered(`html${key}`, () => statusHtml(view, feed, form)));
        }
    );
    app.post(
        '/api/public/status/:slug/subscribe',
        {
            ...limited,
            schema: {
                params: slugParams,
                querystring: keyQuery,
                body: subscribeBody,
                response: answers(
                    { 202: z.object({ message: z.string(), secret: z.string().optional() }) },
                    400,
                    404,
                    429
                ),
            },
        },
        async (req, reply) => {
            const { page } = await open(req);
            return reply.status(202).send(await subscribe(db, page.row, req.body, base(req)));
        }
    );

    // The links in subscribers' messages. A GET only shows a button: mail scanners open links, and must neither
    // confirm nor end a subscription by doing so. The form posts an empty body.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
        done(null, Object.fromEntries(new URLSearchParams(String(body))))
    );
    const html = (reply: FastifyReply, body: string) => reply.type('text/html; charset=utf-8').send(body);
    const steps = [
        {
            path: 'confirm',
            ask: notePage(
                'Confirm your subscription',
                'You will get a message for each incident and maintenance.',
                'Confirm'
            ),
            act: confirmSubscription,
            done: notePage('Subscribed', 'You will get a message for each incident and maintenance.'),
        },
        {
            path: 'unsubscribe',
            ask: notePage('Unsubscribe', 'You will get no more messages about this status page.', 'Unsubscribe'),
            act: unsubscribe,
            done: notePage('Unsubscribed', 'You will get no more messages about this status page.'),
        },
    ];
    for (const step of steps) {
        const url = `/status/subscriptions/:token/${step.path}`;
        const schema = { hide: true, params: tokenParams };
        app.get(url, { ...limited, schema }, async (req, reply) => {
            await byToken(db, req.params.token);
            return html(reply, step.ask);
        });
        app.post(url, { ...limited, schema }, async (req, reply) => {
            await step.act(db, req.params.token);
            return html(reply, step.done);
        });
    }

    // The page's own form, for visitors without scripts: the same subscription, answered with a page.
    app.post(
        '/status/:slug/subscribe',
        { ...limited, schema: { hide: true, params: slugParams, querystring: keyQuery } },
        async (req, reply) => {
            const { page } = await open(req);
            const email = (req.body as { email?: unknown } | undefined)?.email;
            try {
                const done = await subscribe(
                    db,
                    page.row,
                    { email: typeof email === 'string' ? email : '' },
                    base(req)
                );
                return html(reply, notePage('Almost there', done.message));
            } catch (err) {
                if (!(err instanceof ApiError) || err.statusCode !== 400) throw err;
                const why = Object.values(err.errors ?? {})[0] ?? err.message;
                return html(reply.status(400), notePage('Not subscribed', escapeHtml(why)));
            }
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

const tokenParams = z.object({ token: z.string().max(100, 'token is too long') });

/** The small page a subscription link opens: one sentence and, before anything changes, one button. */
const notePage = (title: string, text: string, button?: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>:root { color-scheme: light dark; } body { font: 16px/1.5 system-ui, sans-serif;
margin: 0; } main { max-width: 560px; margin: 0 auto; padding: 16px; } button { font: inherit; padding: 8px 16px; }
</style></head><body><main><h1>${title}</h1><p>${text}</p>${
    button ? `<form method="post"><button type="submit">${button}</button></form>` : ''
}</main></body></html>
`;

interface Found {
    page: PageWithMonitors;
    view: PublicStatusAnswer;
    /** The answer in one form (JSON, HTML, badge), rendered on its first request and kept with the view. */
    rendered(form: string, render: () => string): string;
}

interface Cached {
    at: number;
    found: Found | null;
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
        if (!page) return null;
        const forms = new Map<string, string>();
        return {
            page,
            view: await publicView(this.db, page),
            rendered: (form, render) => {
                let out = forms.get(form);
                if (out === undefined) {
                    out = render();
                    forms.set(form, out);
                }
                return out;
            },
        };
    }
}
