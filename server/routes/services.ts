import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SERVICE_TYPES, serviceProbeUrl } from '../../common/service-types';
import { companyScope } from '../auth/actor';
import { requireWriter } from '../auth/guard';
import { openAddress, sealAddress } from '../auth/url-credentials';
import { HttpError } from '../clients/http';
import type { Db } from '../db/client';
import {
    createService,
    deleteService,
    findService,
    type ServiceWritten,
    serviceDependents,
    serviceSecret,
    updateService,
    visibleServer,
} from '../repositories/services';
import { assertTargetAllowed, enabledFlag, nameField, refId, targetAddress } from '../validation/fields';
import { type Change, mutate, sentence } from './mutate';
import { answers, apiError } from './responses/answers';
import { service } from './responses/entities';
import { idParams, readOnlyFields } from '../validation/schemas';
import { rateCounts } from '../http/rate-counts';

/** Service tests a user may run a minute. */
export const TESTS_PER_MINUTE = 10;

const monitorRef = z.object({ id: z.number().int(), name: z.string(), type: z.string() });
/** What a delete takes along (the monitors created with the service) and what it leaves without data. */
const dependents = z.object({ removed: z.array(monitorRef), losing_data_source: z.array(monitorRef) });
/**
 * The probe answers with the service's own status code: `status` and a sentence for any code the service gave,
 * `{message}` for the console's own refusals (400, 401, 404) and for a service that did not answer (502).
 */
const probe = z.object({ status: z.number().int().optional(), message: z.string(), errors: apiError.shape.errors });

const serviceBody = z.strictObject({
    name: nameField(),
    address: targetAddress,
    is_enabled: enabledFlag,
    type: z.enum(SERVICE_TYPES, { error: `Type must be one of ${SERVICE_TYPES.join(', ')}` }),
    server_id: refId('Please select a server'),
    ...readOnlyFields,
});
type ServiceInput = z.infer<typeof serviceBody>;

const fields = ({ name, address, is_enabled, type, server_id }: ServiceInput) => ({
    name,
    address,
    is_enabled,
    type,
    server_id,
});

const change = (req: FastifyRequest, w: ServiceWritten, event: Change['event'], verb: string): Change => ({
    event,
    message: sentence(req, 'Service', w.service.name, verb),
    companyId: w.companyId,
    configuration: w.configuration,
    server: w.server,
});

/** Services of a server (docs/spec.md §7); GET …/test probes the address and answers with its status code. */
export const serviceRoutes: FastifyPluginAsyncZod = async (app) => {
    const scope = (req: FastifyRequest) => companyScope(req.actor);
    const writer = { onRequest: requireWriter };
    const key = app.ctx.keys.secretsAtRest;
    /** The body to store: a password in the address encrypted beside a masked address (security item 5). */
    const sealed = async (tx: Db, req: FastifyRequest, body: ServiceInput, id: number | null) => {
        if (id !== null) await findService(tx, scope(req), id);
        const stored = id === null ? null : await serviceSecret(tx, id);
        const { server } = await visibleServer(tx, scope(req), body.server_id);
        const { address, secret } = sealAddress(key, body.address, stored, 'address', server.addressSecret);
        return { ...fields(body), address, address_secret: secret };
    };

    app.post(
        '/api/services',
        { ...writer, schema: { body: serviceBody, response: answers({ 201: service }, 400, 401, 403) } },
        async (req, reply) => {
            const created = await mutate(app, req, async (tx) => {
                const w = await createService(tx, scope(req), await sealed(tx, req, req.body, null));
                // Inside the transaction: a refused address undoes the write.
                await assertTargetAllowed(
                    app.ctx.config.allowPrivateTargets,
                    tx,
                    w.companyId,
                    'address',
                    req.body.address
                );
                return { result: w.service, change: change(req, w, 'SERVICE_CREATED', 'created') };
            });
            return reply.status(201).send(created);
        }
    );
    app.put(
        '/api/services/:id',
        {
            ...writer,
            schema: { params: idParams, body: serviceBody, response: answers({ 200: service }, 400, 401, 403, 404) },
        },
        async (req) =>
            mutate(app, req, async (tx) => {
                const w = await updateService(
                    tx,
                    scope(req),
                    req.params.id,
                    await sealed(tx, req, req.body, req.params.id)
                );
                await assertTargetAllowed(
                    app.ctx.config.allowPrivateTargets,
                    tx,
                    w.companyId,
                    'address',
                    req.body.address
                );
                return { result: w.service, change: change(req, w, 'SERVICE_UPDATED', 'updated') };
            })
    );
    const deleted = service.extend({ removed_monitors: z.array(monitorRef) });
    app.delete(
        '/api/services/:id',
        { ...writer, schema: { params: idParams, response: answers({ 200: deleted }, 400, 401, 403, 404) } },
        async (req) =>
            mutate(app, req, async (tx) => {
                const w = await deleteService(tx, scope(req), req.params.id);
                const removed = w.dependents.removed.map((m) => m.name);
                const c = change(req, w, 'SERVICE_DELETED', 'deleted');
                if (removed.length > 0) c.message += ` with its monitors ${removed.join(', ')}`;
                return { result: { ...w.service, removed_monitors: w.dependents.removed }, change: c };
            })
    );
    // What a delete would take along (its monitors), for the confirmation dialog to name.
    app.get(
        '/api/services/:id/dependents',
        { schema: { params: idParams, response: answers({ 200: dependents }, 400, 401, 404) } },
        async (req) => serviceDependents(app.ctx.db, scope(req), req.params.id)
    );
    // Any user may probe, so probes are counted per user: otherwise one read-only account fans out to the node.
    // Counted once the id is valid: a malformed request reaches no node.
    await app.register(rateLimit, { global: false, hook: 'preHandler', ...rateCounts(app) });
    const testLimit = {
        max: TESTS_PER_MINUTE,
        timeWindow: 60_000,
        keyGenerator: (req: FastifyRequest) => `service-test:${req.actor?.id ?? req.ip}`,
        errorResponseBuilder: (_req: unknown, ctx: { after: string }) => ({
            statusCode: 429,
            message: `Too many service tests, try again in ${ctx.after}`,
        }),
    };
    // The UI reads only the status code (docs/spec.md §4: 200 counts as success); a service that does not answer is a 502.
    app.get(
        '/api/services/:id/test',
        {
            schema: { params: idParams, response: { 200: probe, default: probe } },
            config: { rateLimit: testLimit },
        },
        async (req, reply) => {
            const { service, companyId } = await findService(app.ctx.db, scope(req), req.params.id);
            const policy = await app.ctx.egress.forCompany(companyId);
            const address = openAddress(key, service.address, await serviceSecret(app.ctx.db, service.id));
            try {
                // Metrics endpoints answer hundreds of KiB; the cap only guards memory.
                const res = await app.ctx.http.request(serviceProbeUrl(address, service.type), {
                    timeoutMs: 5000,
                    maxBodyBytes: 4 * 1024 * 1024,
                    policy,
                });
                if (res.status < 200 || res.status > 599) {
                    return reply
                        .status(502)
                        .send({ message: `${service.name} answered with invalid HTTP status ${res.status}` });
                }
                return reply
                    .status(res.status)
                    .send({ status: res.status, message: `${service.name} answered HTTP ${res.status}` });
            } catch (err) {
                if (!(err instanceof HttpError)) throw err;
                return reply.status(502).send({ message: `${service.name} did not answer: ${err.message}` });
            }
        }
    );
};
