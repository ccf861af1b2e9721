import { and, count, desc, eq, ilike, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditEntry } from '../../common/entities';
import { companyScope } from '../auth/actor';
import { auditEntries } from '../db/schema';
import type { AuditRow } from '../db/schema';
import { badRequest } from '../errors';
import { listQuerySchema, toListQuery } from '../list-query';
import { answers } from './responses/answers';
import { auditEntry } from './responses/entities';

const DEFAULT_LIMIT = 100;

const ref = (id: number | null, name: string | null) => (id === null ? null : { id, name: name ?? `#${id}` });

export const toAuditEntry = (r: AuditRow): AuditEntry => ({
    id: r.id,
    configuration: ref(r.configurationId, r.configurationName),
    server: ref(r.serverId, r.serverName),
    monitor: ref(r.monitorId, r.monitorName),
    created_at: r.createdAt.toISOString(),
    message: r.message,
});

const idFilter = z.coerce.number().int().positive().optional();
const textFilter = z.string().max(200).optional();
const filterSchema = z.looseObject({
    monitor_id: idFilter,
    server_id: idFilter,
    configuration_id: idFilter,
    // Beside the ids: parts of the names the entries recorded (deleted objects included) and of the message.
    configuration: textFilter,
    server: textFilter,
    monitor: textFilter,
    q: textFilter,
});

/** Case-insensitive "contains", the text taken literally (a typed % or _ is no wildcard). */
function contains(column: AnyPgColumn, text: string | undefined): SQL | undefined {
    const needle = text?.trim();
    if (!needle) return undefined;
    return ilike(column, `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}

/**
 * GET /api/audit/latest: the caller's company's entries, newest first, the latest 100 unless react-admin asks for a
 * range; `filter` narrows to one monitor, server or configuration (the monitor page's history), or by text: parts of
 * the configuration, server and monitor names and of the message (the audit page's filters).
 */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
    app.get(
        '/api/audit/latest',
        {
            schema: { querystring: listQuerySchema, response: answers({ 200: z.array(auditEntry) }, 400, 401) },
            config: { cacheAnswer: true },
        },
        async (req, reply) => {
            const q = toListQuery(req.query);
            const parsed = filterSchema.safeParse(q.filter);
            if (!parsed.success) {
                const issue = parsed.error.issues[0];
                const field = String(issue?.path[0] ?? 'filter');
                throw badRequest({
                    [field]: field.endsWith('_id')
                        ? `${field} must be a positive whole number`
                        : `${field} must be a text of at most 200 characters`,
                });
            }
            const filter = parsed.data;
            const scope = companyScope(req.actor);
            const where: (SQL | undefined)[] = [
                scope === null ? undefined : eq(auditEntries.companyId, scope),
                filter.monitor_id ? eq(auditEntries.monitorId, filter.monitor_id) : undefined,
                filter.server_id ? eq(auditEntries.serverId, filter.server_id) : undefined,
                filter.configuration_id ? eq(auditEntries.configurationId, filter.configuration_id) : undefined,
                contains(auditEntries.configurationName, filter.configuration),
                contains(auditEntries.serverName, filter.server),
                contains(auditEntries.monitorName, filter.monitor),
                contains(auditEntries.message, filter.q),
            ];
            const start = q.range?.start ?? 0;
            const limit = q.range ? q.range.end - q.range.start + 1 : DEFAULT_LIMIT;
            const rows = await app.ctx.db
                .select()
                .from(auditEntries)
                .where(and(...where))
                .orderBy(desc(auditEntries.id))
                .limit(limit)
                .offset(start);
            if (q.range) {
                const [total] = await app.ctx.db
                    .select({ n: count() })
                    .from(auditEntries)
                    .where(and(...where));
                const last = rows.length ? start + rows.length - 1 : start;
                reply.header('Content-Range', `audit ${start}-${last}/${total?.n ?? 0}`);
            }
            return rows.map(toAuditEntry);
        }
    );
};
