// Memory benchmark (npm run bench:memory): resident memory (RSS) of the whole server, idle, on the embedded database
// (PGlite) or on PostgreSQL, each figure from a process of its own:
//   fresh      the first start on an empty data directory (initdb, migrations, the first admin's password hash)
//   restart    the next start on the same data
//   N monitors a start on data holding N urlCheck monitors, with the engine running them for --seconds
//   npm run bench:memory -- [--monitors 2000,10000] [--seconds 30] [--database-url postgres://…/db]
// Prints a table. Not a test: the figures depend on the machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../server/app';
import type { AppConfig } from '../../server/config';
import { companies, configurations, monitors } from '../../server/db/schema';
import { testConfig } from '../server/helpers';

const { values: argv } = parseArgs({
    options: {
        monitors: { type: 'string', default: '2000,10000' },
        seconds: { type: 'string', default: '30' },
        'database-url': { type: 'string', default: '' },
        child: { type: 'string', default: '' },
        dir: { type: 'string', default: '' },
        count: { type: 'string', default: '0' },
    },
});
const SECONDS = Number(argv.seconds);
const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function collectGarbage(): void {
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
}

function config(dir: string, engineEnabled: boolean): AppConfig {
    const databaseUrl = argv['database-url'] || null;
    return testConfig({
        databaseUrl,
        dataDir: dir,
        engineEnabled,
        adminPassword: 'bench-password-1',
        logLevel: 'warn',
    });
}

/** In a child: start the app, wait, and print the RSS as JSON. `seed` writes N monitors and prints nothing useful. */
async function child(kind: string, dir: string, count: number): Promise<void> {
    if (kind === 'seed') {
        const { app } = await buildApp(config(dir, false));
        const db = app.ctx.db;
        if (argv['database-url']) await db.execute(sql`truncate companies, configurations, monitors cascade`);
        const [company] = await db.insert(companies).values({ name: 'Bench' }).returning({ id: companies.id });
        const [cfg] = await db
            .insert(configurations)
            .values({ companyId: company?.id ?? 0, name: 'Bench', chain: 'cosmoshub' })
            .returning({ id: configurations.id });
        for (let from = 0; from < count; from += 1000) {
            const rows = [];
            for (let i = from; i < Math.min(count, from + 1000); i++)
                rows.push({
                    configurationId: cfg?.id ?? 0,
                    name: `url-${i}`,
                    type: 'urlCheck' as const,
                    configurationObject: JSON.stringify({ address: 'http://127.0.0.1:19876/', allowed_attempts: 3 }),
                });
            await db.insert(monitors).values(rows);
        }
        await app.close();
        return;
    }
    // The monitors' target: a tiny local server that answers 200, so the checks succeed.
    const target = createServer((_req, res) => res.end('ok')).listen(19876, '127.0.0.1');
    const { app } = await buildApp(config(dir, true));
    await sleep(SECONDS * 1000);
    const raw = process.memoryUsage().rss;
    collectGarbage();
    await sleep(500);
    const usage = process.memoryUsage();
    process.stdout.write(
        `${JSON.stringify({ rss: raw / MiB, rssAfterGc: usage.rss / MiB, wasm: usage.external / MiB, monitors: app.ctx.engine?.stats.monitors })}\n`
    );
    await app.close();
    target.close();
}

function runChild(kind: string, dir: string, count = 0): Promise<Record<string, number>> {
    return new Promise((resolve, reject) => {
        const args = [
            '--import',
            'tsx',
            'tests/bench/memory.ts',
            '--child',
            kind,
            '--dir',
            dir,
            '--count',
            String(count),
        ];
        args.push('--seconds', String(SECONDS));
        if (argv['database-url']) args.push('--database-url', argv['database-url']);
        const p = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        p.stdout.on('data', (d) => {
            out += d;
        });
        p.on('exit', (code) => {
            // The result line, not a log line the app wrote to stdout before it.
            const line = out.split('\n').find((l) => l.startsWith('{"rss"'));
            if (code !== 0) reject(new Error(`${kind} exited with ${code}: ${out.slice(-500)}`));
            else resolve(line ? JSON.parse(line) : {});
        });
    });
}

async function main(): Promise<void> {
    if (argv.child) return child(argv.child, argv.dir, Number(argv.count));
    const rows: [string, Record<string, number>][] = [];
    const dir = mkdtempSync(join(tmpdir(), 'nm-bench-memory-'));
    try {
        rows.push(['fresh (first start)', await runChild('run', dir)]);
        rows.push(['restart', await runChild('run', dir)]);
        for (const n of argv.monitors
            .split(',')
            .map(Number)
            .filter((x) => x > 0)) {
            const d = mkdtempSync(join(tmpdir(), 'nm-bench-memory-'));
            try {
                await runChild('seed', d, n);
                rows.push([`${n} monitors`, await runChild('run', d)]);
            } finally {
                rmSync(d, { recursive: true, force: true });
            }
        }
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
    const db = argv['database-url'] ? 'PostgreSQL' : 'PGlite';
    console.log(`\n${db}, RSS in MiB after ${SECONDS} s idle (engine on):`);
    console.log('| scenario | RSS | RSS after GC | WASM/external | monitors |\n|---|---|---|---|---|');
    const f = (n: number | undefined) => (n === undefined ? '–' : String(Math.round(n)));
    for (const [name, r] of rows)
        console.log(`| ${name} | ${f(r.rss)} | ${f(r.rssAfterGc)} | ${f(r.wasm)} | ${r.monitors ?? '–'} |`);
}

await main();
