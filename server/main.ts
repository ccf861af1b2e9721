import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { buildApp } from './app';
import { hashPassword } from './auth/passwords';
import { configAsCodeCommand } from './cli/config-as-code';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { startProbe } from './probe';
import { users } from './db/schema';
import { resetPassword, unlockUser } from './services/account-recovery';

/**
 * CLI entry: `start` (default), `migrate`, `create-user --username U [--password P] [--super-admin] [--admin]`,
 * `export` and `import FILE [--dry-run]` (configuration as code), `unlock --username U`,
 * `reset-password --username U [--password P]`.
 */
async function main(): Promise<void> {
    const [command = 'start', ...rest] = process.argv.slice(2);
    const config = loadConfig();
    if (command === 'start') return start(config);
    if (command === 'migrate') {
        const db = await openDatabase(config);
        await db.close();
        console.log('Database is up to date.');
        return;
    }
    if (command === 'create-user') return createUser(config, rest);
    if (command === 'export' || command === 'import') return configAsCodeCommand(config, command, rest);
    if (command === 'unlock' || command === 'reset-password') return recover(config, command, rest);
    throw new ConfigError(
        `Unknown command "${command}". Use start, migrate, create-user, export, import, unlock or reset-password.`
    );
}

async function start(config: ReturnType<typeof loadConfig>): Promise<void> {
    const started = Date.now();
    if (config.role === 'probe') return probe(config);
    const { app, firstAdmin } = await buildApp(config);
    let closing = false;
    const shutdown = async (signal: string) => {
        if (closing) return;
        closing = true;
        app.log.info(`${signal} received, shutting down`);
        const timer = setTimeout(() => process.exit(1), 10_000);
        timer.unref();
        await app.close();
        process.exit(0);
    };
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
    process.on('SIGINT', () => void shutdown('SIGINT'));
    if (config.role === 'worker') {
        // A worker serves no HTTP: it runs checks and deliveries until it is stopped.
        app.log.info(`Node Monitor worker ready in ${Date.now() - started} ms`);
        process.stdout.write('\nNode Monitor worker is running (checks and deliveries, no HTTP)\n');
    } else {
        await app.listen({ port: config.port, host: config.host });
        const address = app.server.address();
        const port = typeof address === 'object' && address ? address.port : config.port;
        const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
        app.log.info(`Node Monitor ready in ${Date.now() - started} ms`);
        process.stdout.write(
            `\nNode Monitor is running on http://${host === '127.0.0.1' ? 'localhost' : host}:${port}\n`
        );
    }
    if (firstAdmin) {
        // Printed once, straight to the terminal and not through the logger, so it never reaches the log tail.
        process.stdout.write(
            `First super admin created. Sign in with username "${firstAdmin.username}" and password "${firstAdmin.password}" (shown only now).\n\n`
        );
    }
}

/** A remote probe: reads for its location's queue until it is stopped (server/probe.ts). */
async function probe(config: ReturnType<typeof loadConfig>): Promise<void> {
    const running = await startProbe(config);
    const shutdown = () => {
        const timer = setTimeout(() => process.exit(1), 10_000);
        timer.unref();
        void running.stop().then(() => process.exit(0));
    };
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
    process.stdout.write(`\nNode Monitor probe ${config.probeLocation} is running (reads only, no database)\n`);
}

async function createUser(config: ReturnType<typeof loadConfig>, args: string[]): Promise<void> {
    const { values } = parseArgs({
        args,
        options: {
            username: { type: 'string' },
            password: { type: 'string' },
            'super-admin': { type: 'boolean', default: false },
            admin: { type: 'boolean', default: false },
        },
    });
    if (!values.username) throw new ConfigError('create-user needs --username');
    const password = values.password ?? (await import('node:crypto')).randomBytes(12).toString('base64url');
    const db = await openDatabase(config);
    try {
        await db.db.insert(users).values({
            username: values.username,
            passwordHash: await hashPassword(password),
            isSuperAdmin: values['super-admin'],
            isAdmin: values.admin || values['super-admin'],
        });
    } finally {
        await db.close();
    }
    console.log(`User "${values.username}" created${values.password ? '' : ` with password "${password}"`}.`);
}

async function recover(
    config: ReturnType<typeof loadConfig>,
    command: 'unlock' | 'reset-password',
    args: string[]
): Promise<void> {
    const { values } = parseArgs({ args, options: { username: { type: 'string' }, password: { type: 'string' } } });
    if (!values.username) throw new ConfigError(`${command} needs --username`);
    const db = await openDatabase(config);
    try {
        if (command === 'unlock') {
            await unlockUser(db.db, values.username);
            console.log(`User "${values.username}" unlocked.`);
            return;
        }
        const password = values.password ?? randomBytes(12).toString('base64url');
        await resetPassword(db.db, values.username, password);
        console.log(
            `Password of "${values.username}" reset${values.password ? '' : ` to "${password}"`}; its sessions were ended.`
        );
    } finally {
        await db.close();
    }
}

main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
});
