import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse as parseYaml, stringify } from 'yaml';
import { deriveKey } from '../auth/keys';
import type { AppConfig } from '../config';
import { ConfigError } from '../config';
import { exportDocument, loadCompanyTree } from '../config-as-code/current';
import { parseDocument } from '../config-as-code/document';
import { reconcile } from '../config-as-code/reconcile';
import { openDatabase } from '../db/client';
import type { Db } from '../db/client';
import { companies } from '../db/schema';
import { ApiError } from '../errors';
import { refusedForCompany } from '../validation/fields';

/** The company a command works on: the one named by --company, or the only one there is. */
async function pickCompany(db: Db, name: string | undefined): Promise<{ id: number; name: string }> {
    const rows = await db.select({ id: companies.id, name: companies.name }).from(companies);
    if (name !== undefined) {
        const found = rows.find((c) => c.name === name);
        if (!found) throw new ConfigError(`No company is called "${name}"`);
        return found;
    }
    if (rows.length === 1 && rows[0]) return rows[0];
    throw new ConfigError(
        rows.length === 0
            ? 'There is no company yet'
            : `Name the company with --company (one of: ${rows.map((c) => c.name).join(', ')})`
    );
}

/**
 * `export [--company NAME] [--format yaml|json]` prints the document; `import FILE [--dry-run] [--company NAME]`
 * prints the plan and applies it unless --dry-run. Both open the database directly: with the embedded database,
 * stop the console first (it holds the data directory), or use the API.
 */
export async function configAsCodeCommand(config: AppConfig, command: 'export' | 'import', args: string[]) {
    const { values, positionals } = parseArgs({
        args,
        allowPositionals: true,
        options: {
            company: { type: 'string' },
            format: { type: 'string', default: 'yaml' },
            'dry-run': { type: 'boolean', default: false },
        },
    });
    const database = await openDatabase(config);
    try {
        const company = await pickCompany(database.db, values.company);
        if (command === 'export') {
            const doc = exportDocument(await loadCompanyTree(database.db, company.id), company.name);
            process.stdout.write(values.format === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : stringify(doc));
            return;
        }
        const file = positionals[0];
        if (!file) throw new ConfigError('import needs the document: npm run cli -- import nodes.yaml [--dry-run]');
        // `npm run cli -- export > nodes.yaml` also captures npm's own banner ("> node-monitor@… cli"): skip it.
        const text = readFileSync(file, 'utf8').replace(/^(\s*\n|> .*\n)*/, '');
        const parsed = parseDocument(parseYaml(text));
        if (!parsed.ok) {
            for (const [at, why] of Object.entries(parsed.errors)) console.error(`${at}: ${why}`);
            throw new ConfigError('The document has errors; nothing was changed');
        }
        const who = { companyId: company.id, actorUserId: null, username: 'the command line', ip: null };
        const dryRun = values['dry-run'];
        const key = deriveKey(config.appSecret, 'secrets-at-rest');
        const rules = (db: Db) => ({
            key,
            refused: (address: string) => refusedForCompany(config.allowPrivateTargets, db, company.id, address),
        });
        const { plan } = dryRun
            ? await reconcile(await loadCompanyTree(database.db, company.id), parsed.doc, null, who, rules(database.db))
            : await database.db.transaction(async (tx) =>
                  reconcile(await loadCompanyTree(tx, company.id), parsed.doc, tx, who, rules(tx))
              );
        for (const item of plan.items.filter((i) => i.action !== 'unchanged'))
            console.log(
                `${item.action.padEnd(7)} ${item.kind} "${item.name}"${item.fields ? ` (${item.fields.join(', ')})` : ''}`
            );
        const { create, update, delete: del, unchanged } = plan.summary;
        console.log(
            `${dryRun ? 'Would create' : 'Created'} ${create}, ${dryRun ? 'update' : 'updated'} ${update}, ${dryRun ? 'delete' : 'deleted'} ${del}; ${unchanged} unchanged.`
        );
    } catch (err) {
        if (err instanceof ApiError && err.errors)
            for (const [at, why] of Object.entries(err.errors)) console.error(`${at}: ${why}`);
        throw err;
    } finally {
        await database.close();
    }
}
