import { count, desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuditEntry } from '../../common/entities';
import { z } from 'zod';
import { companyScope } from '../auth/actor';
import { auditEntries } from '../db/schema';
import type { AuditRow } from '../db/schema';
import {
    idFilter,
    type ListSpec,
    listQuerySchema,
    paged,
    planList,
    sendRange,
    textFilter,
    toListQuery,
} from '../repositories/list-query';
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

/**
 * The list's react-admin parameters: one monitor, server or configuration, or parts of the names the entries
 * recorded (deleted objects included) and of the message. Newest first unless sorted.
 */
const auditList: ListSpec = {
    resource: 'audit',
    id: auditEntries.id,
    defaultOrder: [desc(auditEntries.id)],
    sort: { id: auditEntries.id, created_at: auditEntries.createdAt },
    filter: {
        id: idFilter(auditEntries.id),
        company_id: idFilter(auditEntries.companyId),
        monitor_id: idFilter(auditEntries.monitorId),
        server_id: idFilter(auditEntries.serverId),
        configuration_id: idFilter(auditEntries.configurationId),
        configuration: textFilter(auditEntries.configurationName),
        server: textFilter(auditEntries.serverName),
        monitor: textFilter(auditEntries.monitorName),
        q: textFilter(auditEntries.message),
    },
};

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
            const scope = companyScope(req.actor);
            // Without a range, the latest 100 (the spec's bare call).
            const plan = planList(
                { ...q, range: q.range ?? { start: 0, end: DEFAULT_LIMIT - 1 } },
                auditList,
                scope === null ? undefined : eq(auditEntries.companyId, scope)
            );
            const rows = await paged(app.ctx.db.select().from(auditEntries).where(plan.where).$dynamic(), plan);
            if (q.range) {
                const [total] = await app.ctx.db.select({ n: count() }).from(auditEntries).where(plan.where);
                sendRange(reply, auditList.resource, plan, rows.length, total?.n ?? 0);
            }
            return rows.map(toAuditEntry);
        }
    );
};
