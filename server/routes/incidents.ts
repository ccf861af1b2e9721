import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyScope } from '../auth/actor';
import { requireWriter } from '../auth/guard';
import { ApiError, badRequest } from '../errors';
import {
    addIncidentNote,
    acknowledgeIncident,
    type IncidentActor,
    type IncidentOutcome,
} from '../incidents/acknowledge';
import { getIncident, type IncidentFilter, incidentStats, listIncidents, SORTABLE } from '../incidents/read';
import { listQuerySchema, toListQuery } from '../repositories/list-query';
import { answers } from './responses/answers';
import { incident, incidentStats as statsAnswer } from './responses/incidents';

const DEFAULT_PAGE = 25;
const NOTE_MAX = 2000;

// Incident ids are UUIDs; anything else (a NUL byte, which PostgreSQL text refuses) never reaches the database.
const incidentParams = z.object({ id: z.string().regex(/^[A-Za-z0-9-]{1,100}$/, 'id must be an incident id') });
const idFilter = (field: string) =>
    z.coerce
        .number({ error: `${field} must be a positive whole number` })
        .int()
        .positive()
        .max(2_147_483_647)
        .optional();
const filterSchema = z.looseObject({
    status: z
        .enum(['open', 'closed'], { error: 'status must be open or closed' })
        .optional()
        .or(z.literal('').transform(() => undefined)),
    configuration_id: idFilter('configuration_id'),
    monitor_id: idFilter('monitor_id'),
    server_id: idFilter('server_id'),
});
const noteText = z
    .string({ error: 'note must be a text' })
    .trim()
    .max(NOTE_MAX, `note must be at most ${NOTE_MAX} characters`);
const ackBody = z.strictObject({ note: noteText.optional() }).nullish();
const noteBody = z
    .strictObject({ note: noteText.optional(), text: noteText.optional() })
    .refine((b) => Boolean(b.note || b.text), { message: 'note is required', path: ['note'] });

function parseFilter(raw: Record<string, unknown>): IncidentFilter {
    const parsed = filterSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const field = String(parsed.error.issues[0]?.path[0] ?? 'filter');
    throw badRequest({
        [field]: field === 'status' ? 'status must be open or closed' : `${field} must be a positive whole number`,
    });
}

const actorOf = (req: FastifyRequest): IncidentActor => ({
    kind: 'user',
    userId: req.actor.id,
    username: req.actor.username,
    via: req.actor.apiToken ? 'api' : 'console',
});

const settle = (outcome: IncidentOutcome) => {
    if (!outcome.ok) throw new ApiError(outcome.status, outcome.message);
    return outcome.incident;
};

/**
 * Incidents: a react-admin list (`{results}` and `Content-Range`, `sort`, `range`, `filter` with status,
 * configuration_id, monitor_id), MTTA/MTTR over the same filter, one incident with its timeline, and the two things
 * people do with one: acknowledge it and add notes. Reads for every member of the company, acting for admins.
 */
export const incidentRoutes: FastifyPluginAsyncZod = async (app) => {
    const db = app.ctx.db;
    const scope = (req: FastifyRequest) => companyScope(req.actor);
    const writer = { onRequest: requireWriter };
    // `curl -X POST -H 'content-type: application/json' …/ack` sends no body at all: that is an acknowledgement
    // without a note, not a malformed request (this plugin's routes only).
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
        const text = String(body);
        if (text.trim() === '') return done(null, undefined);
        try {
            done(null, JSON.parse(text));
        } catch {
            done(badRequest({ body: 'The body is not valid JSON' }), undefined);
        }
    });

    app.get(
        '/api/incidents',
        {
            schema: {
                querystring: listQuerySchema,
                response: answers({ 200: z.object({ results: z.array(incident) }) }, 400, 401),
            },
        },
        async (req, reply) => {
            const q = toListQuery(req.query);
            const sort = q.sort ?? { field: 'opened_at', order: 'DESC' as const };
            if (!Object.hasOwn(SORTABLE, sort.field))
                throw badRequest({ sort: `sort must be one of ${Object.keys(SORTABLE).join(', ')}` });
            const range = q.range ?? { start: 0, end: DEFAULT_PAGE - 1 };
            const { rows, total } = await listIncidents(db, scope(req), parseFilter(q.filter), sort, range, Date.now());
            const last = rows.length ? range.start + rows.length - 1 : range.start;
            reply.header('Content-Range', `incidents ${range.start}-${last}/${total}`);
            return { results: rows };
        }
    );
    app.get(
        '/api/incidents/stats',
        { schema: { querystring: listQuerySchema, response: answers({ 200: statsAnswer }, 400, 401) } },
        async (req) => incidentStats(db, scope(req), parseFilter(toListQuery(req.query).filter))
    );
    app.get(
        '/api/incidents/:id',
        { schema: { params: incidentParams, response: answers({ 200: incident }, 400, 401, 404) } },
        async (req) => getIncident(db, scope(req), req.params.id, Date.now())
    );
    app.post(
        '/api/incidents/:id/ack',
        {
            ...writer,
            schema: {
                params: incidentParams,
                body: ackBody,
                response: answers({ 200: incident }, 400, 401, 403, 404, 409),
            },
        },
        async (req) => {
            settle(
                await acknowledgeIncident(db, req.params.id, actorOf(req), { scope: scope(req), note: req.body?.note })
            );
            return getIncident(db, scope(req), req.params.id, Date.now());
        }
    );
    app.post(
        '/api/incidents/:id/notes',
        {
            ...writer,
            schema: {
                params: incidentParams,
                body: noteBody,
                response: answers({ 201: incident }, 400, 401, 403, 404, 409),
            },
        },
        async (req, reply) => {
            const note = req.body.note || req.body.text || '';
            settle(await addIncidentNote(db, req.params.id, actorOf(req), note, { scope: scope(req) }));
            return reply.status(201).send(await getIncident(db, scope(req), req.params.id, Date.now()));
        }
    );
};
