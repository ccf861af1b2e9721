import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { User } from '../../common/entities';
import { requireSuperAdmin } from '../auth/guard';
import { forbidden } from '../errors';
import { listQuerySchema, planList, sendRange, toListQuery } from '../repositories/list-query';
import { createUser, deleteUser, getUser, pageUsers, updateUser, userList } from '../repositories/users';
import { endSessions } from '../services/sessions';
import { type Change, mutate } from './mutate';
import { answers } from './responses/answers';
import { user } from './responses/entities';
import { idParams, optionalText, readOnlyFields, stripReadOnly } from '../validation/schemas';

const userBody = z.strictObject({
    username: z
        .string({ error: 'Username is required' })
        .trim()
        .min(1, 'Username is required')
        .max(64, 'Username must be at most 64 characters'),
    is_active: z.boolean().default(true),
    is_admin: z.boolean().default(false),
    is_super_admin: z.boolean().default(false),
    company_id: z.number({ error: 'Please select a company' }).int().positive().nullable().default(null),
    raw_password: optionalText(
        z.string().min(8, 'Password must be at least 8 characters').max(1024, 'Password is too long')
    ),
    company: z.unknown().optional(),
    ...readOnlyFields,
});

const change = (req: FastifyRequest, user: User, event: Change['event'], verb: string): Change => ({
    event,
    message: `User "${user.username}" ${verb} by ${req.actor.username}`,
    companyId: user.company_id,
});

/**
 * A user made or changed with a token could sign in and mint tokens, or hold more power than the token (a super
 * admin made by a write token); so changing users needs a signed-in session.
 */
async function requireSessionToWrite(req: FastifyRequest): Promise<void> {
    if (req.actor?.apiToken && req.method !== 'GET' && req.method !== 'HEAD') {
        throw forbidden('API tokens cannot create or change users; sign in to the console');
    }
}

/** Users: super admins only. List answers `{results}`; the password never leaves the server. */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
    app.addHook('onRequest', requireSuperAdmin);
    app.addHook('onRequest', requireSessionToWrite);
    app.get(
        '/api/users',
        {
            schema: {
                querystring: listQuerySchema,
                response: answers({ 200: z.object({ results: z.array(user) }) }, 400, 401, 403),
            },
        },
        async (req, reply) => {
            const plan = planList(toListQuery(req.query), userList, undefined);
            const page = await pageUsers(app.ctx.db, plan);
            sendRange(reply, userList.resource, plan, page.rows.length, page.total);
            return { results: page.rows };
        }
    );
    const one = answers({ 200: user }, 400, 401, 403, 404);
    app.get('/api/users/:id', { schema: { params: idParams, response: one } }, async (req) =>
        getUser(app.ctx.db, req.params.id)
    );
    app.post(
        '/api/users',
        { schema: { body: userBody, response: answers({ 201: user }, 400, 401, 403, 409) } },
        async (req, reply) => {
            const { company: _c, ...body } = stripReadOnly(req.body);
            const user = await mutate(app, req, async (tx) => {
                const u = await createUser(tx, body);
                return { result: u, change: change(req, u, 'USER_CREATED', 'created') };
            });
            return reply.status(201).send(user);
        }
    );
    app.put(
        '/api/users/:id',
        { schema: { params: idParams, body: userBody, response: answers({ 200: user }, 400, 401, 403, 404, 409) } },
        async (req) => {
            const { company: _c, ...body } = stripReadOnly(req.body);
            if (req.params.id === req.actor.id && (!body.is_super_admin || !body.is_active)) {
                throw forbidden('You cannot remove your own super admin role or disable yourself');
            }
            return mutate(app, req, async (tx) => {
                const { user, endSessions: end } = await updateUser(tx, req.params.id, body);
                // In the same transaction: a password change that is saved always ends the sessions it should.
                if (end) {
                    await endSessions(app.ctx, user.id, body.raw_password ? 'password_changed' : 'account_changed', tx);
                }
                return { result: user, change: change(req, user, 'USER_UPDATED', 'updated') };
            });
        }
    );
    app.delete('/api/users/:id', { schema: { params: idParams, response: one } }, async (req) => {
        if (req.params.id === req.actor.id) throw forbidden('You cannot delete yourself');
        const user = await mutate(app, req, async (tx) => {
            const u = await deleteUser(tx, req.params.id);
            return { result: u, change: change(req, u, 'USER_DELETED', 'deleted') };
        });
        await endSessions(app.ctx, user.id, 'account_changed');
        return user;
    });
};
