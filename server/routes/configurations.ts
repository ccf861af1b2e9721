import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Configuration, LINK_SEVERITIES, MAX_ESCALATION_MINUTES } from '../../common/entities';
import { companyScope } from '../auth/actor';
import { requireWriter } from '../auth/guard';
import { configurations } from '../db/schema';
import { badRequest } from '../errors';
import { uptimeOf, withUptime } from '../history/uptime-lists';
import { listQuerySchema, planList, sendRange, toListQuery } from '../repositories/list-query';
import {
    createConfiguration,
    createLink,
    deleteConfiguration,
    deleteLink,
    findConfiguration,
    getConfiguration,
    configurationList,
    listLinks,
    pageConfigurations,
    updateConfiguration,
    updateLink,
} from '../repositories/configurations';
import { listMonitors } from '../repositories/monitors';
import { markSilenced } from '../silences/mark';
import { inScope, targetCompany } from '../repositories/scope';
import { listServers } from '../repositories/servers';
import { validatorCard } from '../repositories/validator-card';
import {
    assertEndpointsAllowed,
    chainEndpointsField,
    enabledFlag,
    nameField,
    optionalRefId,
    refId,
} from '../validation/fields';
import { type Change, mutate, sentence } from './mutate';
import { answers } from './responses/answers';
import { channelLink, configuration, monitor, server } from './responses/entities';
import { validatorCard as validatorCardAnswer } from './responses/validator-card';
import { idParams, readOnlyFields } from '../validation/schemas';

const configurationBody = z.strictObject({
    name: nameField(),
    chain: z
        .string({ error: 'Chain is required' })
        .trim()
        .min(1, 'Chain is required')
        .max(100, 'Chain must be at most 100 characters'),
    is_enabled: enabledFlag,
    // Absent on a PUT: the stored endpoints stay (a client that does not know the field does not clear it).
    chain_endpoints: chainEndpointsField.optional(),
    company_id: optionalRefId('company_id must be a company id').optional(),
    // Echoed back by react-admin from what it read; ignored.
    company: z.unknown().optional(),
    servers: z.unknown().optional(),
    monitors: z.unknown().optional(),
    // Read from lists and the detail (history), never stored.
    uptime_30d: z.unknown().optional(),
    ...readOnlyFields,
});
type ConfigurationInput = z.infer<typeof configurationBody>;

const ESCALATION_ERROR = `escalate_after_minutes must be a whole number of minutes from 1 to ${MAX_ESCALATION_MINUTES}, or null to send at once`;
const linkParams = idParams.extend({ linkId: idParams.shape.id });
const routing = {
    min_severity: z.enum(LINK_SEVERITIES, { error: 'min_severity must be critical or warning' }).optional(),
    send_recoveries: z.boolean({ error: 'send_recoveries must be true or false' }).optional(),
    send_reminders: z.boolean({ error: 'send_reminders must be true or false' }).optional(),
    escalate_after_minutes: z
        .number({ error: ESCALATION_ERROR })
        .int(ESCALATION_ERROR)
        .min(1, ESCALATION_ERROR)
        .max(MAX_ESCALATION_MINUTES, ESCALATION_ERROR)
        .nullable()
        .optional(),
};
const linkBody = z.strictObject({
    configuration_id: optionalRefId('configuration_id must be a configuration id').optional(),
    notification_channel_id: refId('Please select a notification channel'),
    ...routing,
});
/** What editing a link may change: its routing (react-admin may echo the rest, which must then be unchanged). */
const linkEditBody = z.object(routing);

const fields = ({ name, chain, is_enabled, company_id, chain_endpoints }: ConfigurationInput) => ({
    name,
    chain,
    is_enabled,
    company_id,
    chain_endpoints,
});

const change = (req: FastifyRequest, c: Configuration, event: Change['event'], verb: string): Change => ({
    event,
    message: sentence(req, 'Configuration', c.name, verb),
    companyId: c.company_id,
    configuration: { id: c.id, name: c.name },
});

/** Configurations and their channel links (docs/spec.md §7). Reads for every member of the company, writes for admins. */
export const configurationRoutes: FastifyPluginAsyncZod = async (app) => {
    const db = app.ctx.db;
    const scope = (req: FastifyRequest) => companyScope(req.actor);
    const writer = { onRequest: requireWriter };

    app.get(
        '/api/configurations',
        {
            schema: { querystring: listQuerySchema, response: answers({ 200: z.array(configuration) }, 400, 401) },
            config: { cacheAnswer: true },
        },
        async (req, reply) => {
            const plan = planList(
                toListQuery(req.query),
                configurationList,
                inScope(configurations.companyId, scope(req))
            );
            const page = await pageConfigurations(db, plan);
            sendRange(reply, configurationList.resource, plan, page.rows.length, page.total);
            return page.rows;
        }
    );
    /** Reads of one configuration (or what is under it): any member of its company. */
    const read = <T extends z.ZodType>(ok: T) => ({
        params: idParams,
        response: answers({ 200: ok }, 400, 401, 404),
    });
    /** Writes: admins of its company. */
    const write = <T extends Record<number, z.ZodType>>(ok: T, ...codes: (409 | 404)[]) =>
        answers(ok, 400, 401, 403, ...codes);
    // Beside the spec's fields: the 30-day uptime of all its monitors' checks (the configuration detail shows it).
    app.get('/api/configurations/:id', { schema: read(configuration) }, async (req) => {
        const found = await getConfiguration(db, scope(req), req.params.id);
        const uptime = await uptimeOf(db, scope(req), req.params.id);
        return { ...found, uptime_30d: uptime.configurations[0]?.uptime_30d ?? null };
    });
    app.get('/api/configurations/:id/servers', { schema: read(z.array(server)) }, async (req) => {
        await findConfiguration(db, scope(req), req.params.id);
        return listServers(db, scope(req), eq(configurations.id, req.params.id));
    });
    // The Validator card: what the configuration's validator-duty monitors last read (common/validator-card.ts).
    app.get('/api/configurations/:id/validator', { schema: read(validatorCardAnswer) }, async (req) => {
        await findConfiguration(db, scope(req), req.params.id);
        const engine = app.ctx.engine;
        return validatorCard(db, req.params.id, engine ? (id) => engine.stateOf(id) : undefined);
    });
    app.get('/api/configurations/:id/monitors', { schema: read(z.array(monitor)) }, async (req) => {
        await findConfiguration(db, scope(req), req.params.id);
        return markSilenced(
            app.ctx.silences,
            await withUptime(db, await listMonitors(db, scope(req), eq(configurations.id, req.params.id)))
        );
    });
    app.post(
        '/api/configurations',
        { ...writer, schema: { body: configurationBody, response: write({ 201: configuration }) } },
        async (req, reply) => {
            const companyId = await targetCompany(db, req.actor, req.body.company_id);
            const created = await mutate(app, req, async (tx) => {
                await assertEndpointsAllowed(
                    app.ctx.config.allowPrivateTargets,
                    tx,
                    companyId,
                    req.body.chain_endpoints
                );
                const c = await createConfiguration(tx, companyId, fields(req.body));
                return { result: c, change: change(req, c, 'CONFIGURATION_CREATED', 'created') };
            });
            return reply.status(201).send(created);
        }
    );
    app.put(
        '/api/configurations/:id',
        {
            ...writer,
            schema: { params: idParams, body: configurationBody, response: write({ 200: configuration }, 404) },
        },
        async (req) =>
            mutate(app, req, async (tx) => {
                // Inside the transaction: a refused endpoint undoes the write (the company is known only after it).
                const c = await updateConfiguration(tx, scope(req), req.params.id, fields(req.body));
                await assertEndpointsAllowed(
                    app.ctx.config.allowPrivateTargets,
                    tx,
                    c.company_id,
                    req.body.chain_endpoints
                );
                return { result: c, change: change(req, c, 'CONFIGURATION_UPDATED', 'updated') };
            })
    );
    app.delete(
        '/api/configurations/:id',
        { ...writer, schema: { params: idParams, response: write({ 200: configuration }, 404) } },
        async (req) =>
            mutate(app, req, async (tx) => {
                const c = await deleteConfiguration(tx, scope(req), req.params.id);
                return { result: c, change: change(req, c, 'CONFIGURATION_DELETED', 'deleted') };
            })
    );

    app.get('/api/configurations/:id/notification-channels', { schema: read(z.array(channelLink)) }, async (req) =>
        listLinks(db, scope(req), req.params.id)
    );
    app.post(
        '/api/configurations/:id/notification-channels',
        { ...writer, schema: { params: idParams, body: linkBody, response: write({ 201: channelLink }, 404, 409) } },
        async (req, reply) => {
            const { configuration_id: bodyId, notification_channel_id: channelId, ...linkRouting } = req.body;
            if (bodyId !== undefined && bodyId !== null && bodyId !== req.params.id) {
                throw badRequest({ configuration_id: 'configuration_id must be the configuration in the path' });
            }
            const link = await mutate(app, req, async (tx) => {
                const { link, configuration: c } = await createLink(
                    tx,
                    scope(req),
                    req.params.id,
                    channelId,
                    linkRouting
                );
                const what = `Notification channel "${link.notification_channel.name}" associated with configuration`;
                return {
                    result: link,
                    change: { ...linkChange(req, c, what), event: 'NOTIFICATION_CHANNEL_ASSOCIATED', channelId },
                };
            });
            return reply.status(201).send(link);
        }
    );
    app.put(
        '/api/configurations/:id/notification-channels/:linkId',
        { ...writer, schema: { params: linkParams, body: linkEditBody, response: write({ 200: channelLink }, 404) } },
        async (req) =>
            mutate(app, req, async (tx) => {
                const { link, configuration: c } = await updateLink(
                    tx,
                    scope(req),
                    req.params.id,
                    req.params.linkId,
                    req.body
                );
                const what = `Routing of notification channel "${link.notification_channel.name}" changed for configuration`;
                return {
                    result: link,
                    change: {
                        ...linkChange(req, c, what),
                        event: 'NOTIFICATION_CHANNEL_UPDATED',
                        channelId: link.notification_channel_id,
                    },
                };
            })
    );
    app.delete(
        '/api/configurations/:id/notification-channels/:linkId',
        { ...writer, schema: { params: linkParams, response: write({ 200: channelLink }, 404) } },
        async (req) =>
            mutate(app, req, async (tx) => {
                const { link, configuration: c } = await deleteLink(tx, scope(req), req.params.id, req.params.linkId);
                const what = `Notification channel "${link.notification_channel.name}" removed from configuration`;
                const channelId = link.notification_channel_id;
                return {
                    result: link,
                    change: { ...linkChange(req, c, what), event: 'NOTIFICATION_CHANNEL_DISASSOCIATED', channelId },
                };
            })
    );
};

function linkChange(req: FastifyRequest, c: { id: number; name: string; companyId: number }, what: string) {
    return {
        message: `${what} "${c.name}" by ${req.actor.username}`,
        companyId: c.companyId,
        configuration: { id: c.id, name: c.name },
    };
}
