// Duplicate deliveries under worker crashes (npm run bench:duplicates): "the only duplicate left is a kill
// between a provider's success and our 'sent' mark: measure how often". Three `worker` processes deliver a steady
// flow of notifications from the outbox to a fake Telegram while one of them is killed with -9 every few seconds
// (and started again); afterwards every row must be sent, and a row that reached Telegram more than once is a
// duplicate. Prints the duplicates per 1,000 deliveries and per kill, with the machine's load. Not a test: how
// often a kill falls in that window depends on the machine and the kill rate.
//   npm run bench:duplicates -- --seconds 240 --rate 20 --channels 40 --kill-every 4
// PostgreSQL from DATABASE_URL (a throw-away database is made), Redis from REDIS_URL (default database 9, flushed).
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { deriveKey } from '../../server/auth/keys';
import { encryptSecret } from '../../server/auth/secrets';
import { openDatabase } from '../../server/db/client';
import { companies, notificationChannels, outbox } from '../../server/db/schema';
import { type ConsoleProcess, startConsole, stopConsole } from '../cluster/processes';
import { throwAwayPostgres } from '../server/helpers';
import { startFakeTelegram } from '../support/fake-telegram';

const { values: argv } = parseArgs({
    options: {
        seconds: { type: 'string', default: '240' },
        /** Notifications queued per second, spread over the channels. */
        rate: { type: 'string', default: '20' },
        channels: { type: 'string', default: '40' },
        'kill-every': { type: 'string', default: '4' },
        workers: { type: 'string', default: '3' },
    },
});
const SECONDS = Number(argv.seconds);
const RATE = Number(argv.rate);
const CHANNELS = Number(argv.channels);
const KILL_EVERY_MS = Number(argv['kill-every']) * 1000;
const WORKERS = Number(argv.workers);
const PROBE = /dup-probe (\d+)/g;

const postgres = await throwAwayPostgres(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const flush = new Redis(redisUrl);
await flush.flushdb();
flush.disconnect();
const database = await openDatabase({ databaseUrl: postgres.url, dataDir: '' });
const telegram = await startFakeTelegram();
const appSecret = randomBytes(32).toString('hex');
const key = deriveKey(appSecret, 'secrets-at-rest');
const [company] = await database.db
    .insert(companies)
    .values({ name: 'Duplicates', allowedNetworks: ['127.0.0.0/8'] })
    .returning();
const channelIds = (
    await database.db
        .insert(notificationChannels)
        .values(
            Array.from({ length: CHANNELS }, (_, i) => ({
                companyId: company?.id ?? 0,
                name: `chat ${i}`,
                type: 'telegram' as const,
                configurationObject: JSON.stringify({
                    bot_token: encryptSecret(key, `${600000 + i}:DUPLICATES-bench-token`),
                    chat_id: String(-1000 - i),
                }),
            }))
        )
        .returning({ id: notificationChannels.id })
).map((c) => c.id);

const env = {
    DATABASE_URL: postgres.url,
    REDIS_URL: redisUrl,
    APP_SECRET: appSecret,
    ADMIN_PASSWORD: 'admin-password-1',
    DATA_DIR: `/tmp/nm-bench-duplicates-${randomBytes(4).toString('hex')}`,
    TELEGRAM_API_URL: telegram.url,
};
const live = new Set<ConsoleProcess>(
    await Promise.all(Array.from({ length: WORKERS }, () => startConsole('worker', env)))
);
const starting = new Set<Promise<unknown>>();
let kills = 0;

// The flow: RATE rows a second, each naming itself in its first line (a digest line is that line).
let queued = 0;
const feeder = setInterval(() => {
    const n = Math.round(RATE / 4);
    const rows = Array.from({ length: n }, () => {
        const i = queued++;
        return { channelId: channelIds[i % CHANNELS] ?? 0, kind: 'alert', text: `dup-probe ${i}\nfailing` };
    });
    // Drizzle runs a query when it is awaited or then'd.
    database.db
        .insert(outbox)
        .values(rows)
        .catch((err: Error) => console.error(`queueing failed: ${err.message}`));
}, 250);

// A kill every KILL_EVERY_MS of a worker that is up (never the last one), and a new one started in its place.
const killer = setInterval(() => {
    const up = [...live];
    if (up.length < 2) return;
    const victim = up[Math.floor(Math.random() * up.length)] as ConsoleProcess;
    live.delete(victim);
    kills++;
    void stopConsole(victim, 'SIGKILL');
    const next = startConsole('worker', env, 120_000).then((p) => live.add(p));
    starting.add(next);
    void next.finally(() => starting.delete(next));
}, KILL_EVERY_MS);

const started = Date.now();
await new Promise((r) => setTimeout(r, SECONDS * 1000));
clearInterval(feeder);
clearInterval(killer);
await Promise.allSettled([...starting]);
// Rows a killed worker had claimed wait for the claim to end (notify/claims.ts) before another sends them.
const pending = async () =>
    Number(
        (
            (await database.db.execute(
                sql`select count(*)::int as n from outbox where status <> 'sent'`
            )) as unknown as {
                rows: { n: number }[];
            }
        ).rows[0]?.n
    );
const deadline = Date.now() + 240_000;
while ((await pending()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1000));
const unsent = await pending();
const elapsed = (Date.now() - started) / 1000;

const seen = new Map<number, number>();
for (const m of telegram.sent)
    for (const [, id] of m.text.matchAll(PROBE)) seen.set(Number(id), (seen.get(Number(id)) ?? 0) + 1);
const delivered = [...seen.values()].reduce((a, b) => a + b, 0);
const duplicates = delivered - seen.size;
const sentRows = (await database.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.status, 'sent'))).length;
const [one, five, fifteen] = loadavg().map((l) => l.toFixed(2));

console.log(
    `\nDuplicate deliveries under worker crashes (${WORKERS} workers, a kill -9 every ${KILL_EVERY_MS / 1000} s)\n`
);
console.log('| figure | value |');
console.log('|---|---|');
console.log(`| notifications queued | ${queued} (${RATE}/s over ${CHANNELS} Telegram channels, ${SECONDS} s) |`);
console.log(`| rows marked sent | ${sentRows} (${unsent} not, after ${elapsed.toFixed(0)} s) |`);
console.log(`| distinct notifications on the wire | ${seen.size} (${queued - seen.size} never arrived) |`);
console.log(`| messages on the wire | ${telegram.sent.length} (digests hold several notifications) |`);
console.log(`| workers killed with -9 | ${kills} |`);
console.log(`| duplicate deliveries | ${duplicates} |`);
console.log(`| duplicates per 1,000 deliveries | ${((duplicates / Math.max(1, seen.size)) * 1000).toFixed(2)} |`);
console.log(`| duplicates per kill | ${(duplicates / Math.max(1, kills)).toFixed(3)} |`);
console.log(`| load average (1, 5, 15 min) | ${one}, ${five}, ${fifteen} on 2 cores |`);

await Promise.all([...live].map((p) => stopConsole(p)));
await telegram.close();
await database.close();
await postgres.drop();
process.exit(0);
