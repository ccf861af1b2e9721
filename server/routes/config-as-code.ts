import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { stringify } from 'yaml';
import { z } from 'zod';
import { requireWriter } from '../auth/guard';
import { beyondImportLimits } from '../config-as-code/bounds';
import { exportDocument, loadCompanyTree } from '../config-as-code/current';
import { parseDocument } from '../config-as-code/document';
import { parseYamlOffThread, YamlError } from '../config-as-code/yaml-off-thread';
import { reconcile } from '../config-as-code/reconcile';
import { companies } from '../db/schema';
import { badRequest } from '../errors';
import { targetCompany } from '../repositories/scope';
import type { Db } from '../db/client';
import { optionalRefId, refusedForCompany } from '../validation/fields';
import { eq } from 'drizzle-orm';
import { answers } from './responses/answers';
import { configDocument, importPlan } from './responses/config-as-code';

const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml'];

/**
 * Configuration as code: GET /api/export writes the caller's company's configurations as a versioned document
 * (YAML or JSON); POST /api/import takes the same document, answers the plan and, unless it is a dry run, applies it
 * in one transaction. A super admin names the company with `company_id`.
 */
export const configAsCodeRoutes: FastifyPluginAsyncZod = async (app) => {
    app.addContentTypeParser(YAML_TYPES, { parseAs: 'string' }, async (_req: unknown, body: string | Buffer) => {
        let document: unknown;
        try {
            document = await parseYamlOffThread(String(body));
        } catch (err) {
            if (!(err instanceof YamlError)) throw err;
            throw badRequest({ document: `The document is not valid YAML: ${err.message}` });
        }
        // Before anything else walks it: the expanded document is what every later step pays for.
        const beyond = beyondImportLimits(document);
        if (beyond) throw badRequest({ document: beyond });
        return document;
    });

    app.get(
        '/api/export',
        {
            schema: {
                querystring: z.strictObject({
                    format: z.enum(['yaml', 'json'], { error: 'format must be yaml or json' }).default('yaml'),
                    company_id: optionalRefId('company_id must be a company id').optional(),
                }),
                response: {
                    ...answers({}, 400, 401, 403, 404),
                    200: {
                        description: 'The document, as YAML or JSON (format)',
                        content: {
                            'application/yaml': { schema: z.string() },
                            'application/json': { schema: configDocument },
                        },
                    },
                },
            },
        },
        async (req, reply) => {
            const companyId = await targetCompany(app.ctx.db, req.actor, req.query.company_id);
            const [company] = await app.ctx.db
                .select({ name: companies.name })
                .from(companies)
                .where(eq(companies.id, companyId));
            const doc = exportDocument(await loadCompanyTree(app.ctx.db, companyId), company?.name ?? '');
            const file = `node-monitor-${new Date().toISOString().slice(0, 10)}.${req.query.format}`;
            reply.header('content-disposition', `attachment; filename="${file}"`);
            if (req.query.format === 'json') return reply.type('application/json').send(doc);
            return reply.type('application/yaml; charset=utf-8').send(stringify(doc));
        }
    );

    app.post(
        '/api/import',
        {
            preHandler: requireWriter,
            schema: {
                querystring: z.strictObject({
                    dry_run: z.enum(['true', 'false'], { error: 'dry_run must be true or false' }).default('true'),
                    company_id: optionalRefId('company_id must be a company id').optional(),
                }),
                response: answers({ 200: importPlan }, 400, 401, 403, 404),
            },
        },
        async (req) => {
            const companyId = await targetCompany(app.ctx.db, req.actor, req.query.company_id);
            const beyond = beyondImportLimits(req.body);
            if (beyond) throw badRequest({ document: beyond });
            const parsed = parseDocument(req.body);
            if (!parsed.ok) throw badRequest(parsed.errors, 'The document has errors; nothing was changed');
            const who = { companyId, actorUserId: req.actor.id, username: req.actor.username, ip: req.ip };
            const dryRun = req.query.dry_run !== 'false';
            // Read through the db in use: under PGlite an open transaction holds the one connection.
            const rules = (db: Db) => ({
                key: app.ctx.keys.secretsAtRest,
                refused: (address: string) =>
                    refusedForCompany(app.ctx.config.allowPrivateTargets, db, companyId, address),
            });
            if (dryRun) {
                const tree = await loadCompanyTree(app.ctx.db, companyId);
                const { plan } = await reconcile(tree, parsed.doc, null, who, rules(app.ctx.db));
                return { dry_run: true, applied: false, ...plan };
            }
            const { plan, events } = await app.ctx.db.transaction(async (tx) =>
                reconcile(await loadCompanyTree(tx, companyId), parsed.doc, tx, who, rules(tx))
            );
            // After the commit, so the engine reloads committed rows; a burst of events causes one reload.
            for (const name of new Set(events)) app.ctx.events.emit({ name });
            return { dry_run: false, applied: true, ...plan };
        }
    );
};
