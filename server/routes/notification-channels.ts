import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CHANNEL_TYPES } from '../../common/channel-types';
import { companyScope } from '../auth/actor';
import { requireWriter } from '../auth/guard';
import { notificationChannels, type NotificationChannelRow } from '../db/schema';
import { listQuerySchema, planList, sendRange, toListQuery } from '../repositories/list-query';
import {
    type ChannelBody,
    createChannel,
    deleteChannel,
    findChannel,
    channelList,
    pageChannels,
    toChannel,
    updateChannel,
} from '../repositories/notification-channels';
import { channelDeliveries } from '../repositories/channel-delivery';
import { inScope, targetCompany } from '../repositories/scope';
import { testChannel } from '../services/channel-test';
import { enabledFlag, nameField, optionalRefId } from '../validation/fields';
import { type Change, mutate, sentence } from './mutate';
import { answers, apiError } from './responses/answers';
import { channel } from './responses/entities';
import { idParams, readOnlyFields } from '../validation/schemas';
import { rateCounts } from '../http/rate-counts';

/** A test's refusal: the destination's own text, `retry_after` when it asked to wait, or the field errors. */
const testRefused = apiError.extend({ retry_after: z.number().optional() });

const NO_CONFIG = 'Please enter a configuration object!';

/** A JSON string or an object; null or absent is the spec's 'Please enter a configuration object!'. */
const configurationObject = z.unknown().transform((v, ctx) => {
    const parsed = typeof v === 'string' ? parseJson(v) : v;
    if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) {
        ctx.addIssue({ code: 'custom', message: NO_CONFIG });
        return z.NEVER;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        ctx.addIssue({ code: 'custom', message: 'configuration_object must be a JSON object' });
        return z.NEVER;
    }
    return parsed as Record<string, unknown>;
});

function parseJson(text: string): unknown {
    try {
        return JSON.parse(text);
    } catch {
        return undefined;
    }
}

const channelBody = z.strictObject({
    name: nameField('Please enter a name!'),
    type: z.enum(CHANNEL_TYPES, { error: 'Please select a type!' }),
    configuration_object: configurationObject,
    is_enabled: enabledFlag,
    company_id: optionalRefId('company_id must be a company id').optional(),
    ...readOnlyFields,
});
type ChannelInput = z.infer<typeof channelBody>;

const testBody = channelBody.extend({ id: optionalRefId('id must be a notification channel id').optional() });

const fields = (b: ChannelInput): ChannelBody & { company_id?: number | null } => ({
    name: b.name,
    type: b.type,
    configuration_object: b.configuration_object,
    is_enabled: b.is_enabled,
    company_id: b.company_id,
});

const change = (req: FastifyRequest, row: NotificationChannelRow, event: Change['event'], verb: string): Change => ({
    event,
    message: sentence(req, 'Notification channel', row.name, verb),
    companyId: row.companyId,
    channelId: row.id,
});

/**
 * Notification channels of a company (docs/spec.md §7). The bot token is encrypted at rest and masked on every read;
 * sending back the mask keeps the stored token. Tests send a real message, at most 5 a minute per user.
 */
export const notificationChannelRoutes: FastifyPluginAsyncZod = async (app) => {
    const db = app.ctx.db;
    const key = app.ctx.keys.secretsAtRest;
    const scope = (req: FastifyRequest) => companyScope(req.actor);
    const writer = { onRequest: requireWriter };
    await app.register(rateLimit, { global: false, ...rateCounts(app) });
    const testLimit = {
        max: 5,
        timeWindow: 60_000,
        // Runs after requireWriter, so read-only users are refused before they count.
        keyGenerator: (req: FastifyRequest) => `channel-test:${req.actor?.id ?? req.ip}`,
        errorResponseBuilder: (_req: unknown, ctx: { after: string }) => ({
            statusCode: 429,
            message: `Too many notification channel tests, try again in ${ctx.after}`,
        }),
    };

    app.get(
        '/api/notification-channels',
        { schema: { querystring: listQuerySchema, response: answers({ 200: z.array(channel) }, 400, 401) } },
        async (req, reply) => {
            const plan = planList(
                toListQuery(req.query),
                channelList,
                inScope(notificationChannels.companyId, scope(req))
            );
            const page = await pageChannels(db, plan);
            sendRange(reply, channelList.resource, plan, page.rows.length, page.total);
            const rows = page.rows.map((c) => toChannel(key, c));
            const delivery = await channelDeliveries(
                db,
                rows.map((c) => c.id)
            );
            return rows.map((c) => ({ ...c, delivery: delivery.get(c.id) }));
        }
    );
    const one = answers({ 200: channel }, 400, 401, 404);
    app.get('/api/notification-channels/:id', { schema: { params: idParams, response: one } }, async (req) => {
        const row = await findChannel(db, scope(req), req.params.id);
        const delivery = await channelDeliveries(db, [row.id]);
        return { ...toChannel(key, row), delivery: delivery.get(row.id) };
    });
    app.post(
        '/api/notification-channels',
        { ...writer, schema: { body: channelBody, response: answers({ 201: channel }, 400, 401, 403, 404) } },
        async (req, reply) => {
            const companyId = await targetCompany(db, req.actor, req.body.company_id);
            const row = await mutate(app, req, async (tx) => {
                const r = await createChannel(tx, key, companyId, fields(req.body));
                return { result: r, change: change(req, r, 'NOTIFICATION_CHANNEL_CREATED', 'created') };
            });
            return reply.status(201).send(toChannel(key, row));
        }
    );
    const written = answers({ 200: channel }, 400, 401, 403, 404);
    app.put(
        '/api/notification-channels/:id',
        { ...writer, schema: { params: idParams, body: channelBody, response: written } },
        async (req) => {
            const row = await mutate(app, req, async (tx) => {
                const r = await updateChannel(tx, key, scope(req), req.params.id, fields(req.body));
                return { result: r, change: change(req, r, 'NOTIFICATION_CHANNEL_UPDATED', 'updated') };
            });
            return toChannel(key, row);
        }
    );
    app.delete(
        '/api/notification-channels/:id',
        { ...writer, schema: { params: idParams, response: written } },
        async (req) => {
            const row = await mutate(app, req, async (tx) => {
                const r = await deleteChannel(tx, scope(req), req.params.id);
                return { result: r, change: change(req, r, 'NOTIFICATION_CHANNEL_DELETED', 'deleted') };
            });
            return toChannel(key, row);
        }
    );
    app.post(
        '/api/notification-channels/test',
        {
            ...writer,
            schema: {
                body: testBody,
                response: answers(
                    { 200: z.object({ message: z.string() }), 400: testRefused, 502: apiError },
                    401,
                    403,
                    404,
                    429
                ),
            },
            config: { rateLimit: testLimit },
        },
        async (req, reply) => {
            // A super admin's form names the company (its allowed networks apply); anyone else tests for their own.
            const named = req.body.company_id !== undefined && req.body.company_id !== null;
            const companyId =
                named || !req.actor.isSuperAdmin ? await targetCompany(db, req.actor, req.body.company_id) : null;
            const outcome = await testChannel(app.ctx, scope(req), req.body, companyId);
            app.ctx.events.emit({ name: 'NOTIFICATION_CHANNEL_TESTED', channelId: req.body.id ?? undefined });
            return reply.status(outcome.status).send(outcome.body);
        }
    );
};
