import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { SessionLock } from '../../server/db/session-lock';
import { waitFor } from '../server/seed';
import { clusterDatabase } from './processes';

/**
 * The lock the cluster-wide duties run under (server/db/session-lock.ts), on the machine's PostgreSQL: one holder
 * at a time, and the lock changes hands when the holder's connection ends, however it ends.
 */
const dbName = `nm_lock_${randomBytes(6).toString('hex')}`;
let database: { url: string; drop: () => Promise<void> };
const locks: SessionLock[] = [];

const quiet = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;

/** A lock that records whether its holder runs what it guards. */
function contender(name: string) {
    const state = { running: false, starts: 0, stops: 0 };
    const lock = new SessionLock(
        {
            databaseUrl: database.url,
            key: 4242,
            name,
            retryMs: 200,
            onAcquired: () => {
                state.running = true;
                state.starts++;
            },
            onLost: () => {
                state.running = false;
                state.stops++;
            },
        },
        quiet
    );
    locks.push(lock);
    lock.start();
    return { lock, state };
}

beforeAll(async () => {
    database = await clusterDatabase(dbName);
});

afterAll(async () => {
    for (const l of locks) await l.stop();
    await database?.drop();
});

it('runs in one contender; the other takes over when the holder stops or its connection is ended', async () => {
    const a = contender('duty-a');
    const b = contender('duty-b');
    await waitFor('a holder', () => a.state.running || b.state.running);
    // Several rounds of asking: the other never starts meanwhile.
    await new Promise((r) => setTimeout(r, 1000));
    expect([a.state.running, b.state.running].filter(Boolean)).toHaveLength(1);
    const [holder, other] = a.state.running ? [a, b] : [b, a];

    // The database ends the holder's session (as when its process dies): it stops, the other starts.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name like 'node-monitor duty-${holder === a ? 'a' : 'b'} %'`
    );
    await admin.end();
    await waitFor('the other to take over', () => other.state.running);
    expect(holder.state).toMatchObject({ running: false, stops: 1 });

    // A clean stop lets go at once; the first contender, still asking, takes it back.
    await other.lock.stop();
    expect(other.state).toMatchObject({ running: false, stops: 1 });
    await waitFor('the first to hold again', () => holder.state.running);
    expect(holder.state.starts).toBe(2);
});
