import { stoppableDatabase } from '../support/db-faults';
import { HEALTH_REUSE_MS } from '../../server/db/recent-read';
import { createTestApp, type TestApp } from './helpers';

/**
 * /api/health under many probes: one read of the database answers them all for a second, yet a database that stops
 * answering is reported at once when any part of the server has met the failure, and within that second otherwise.
 */
let t: TestApp;
let reads = 0;
beforeAll(async () => {
    t = await createTestApp();
    const db = t.app.ctx.db as unknown as { execute: (...a: unknown[]) => Promise<unknown> };
    const execute = db.execute.bind(db);
    db.execute = (...a: unknown[]) => {
        reads++;
        return execute(...a);
    };
});
afterAll(() => t.close());

const health = async () => {
    const res = await t.app.inject({ url: '/api/health' });
    return { status: res.statusCode, body: res.json() };
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('reads the database once for all the probes of a second, and again after it', async () => {
    await sleep(HEALTH_REUSE_MS + 50);
    reads = 0;
    const answers = await Promise.all(Array.from({ length: 20 }, health));
    for (let i = 0; i < 20; i++) answers.push(await health());
    expect(answers.every((a) => a.status === 200 && a.body.status === 'ok')).toBe(true);
    expect(reads).toBe(1);
    await sleep(HEALTH_REUSE_MS + 50);
    expect((await health()).status).toBe(200);
    expect(reads).toBe(2);
});

it('says the database is failing at once when another part of the server has met the failure', async () => {
    expect((await health()).status).toBe(200);
    const db = stoppableDatabase(t.app);
    db.stop();
    try {
        // As the engine's flush or the outbox would report it, within the second a read answered for.
        t.app.ctx.dbHealth.failed(
            Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
            'a test'
        );
        const failing = await health();
        expect(failing.status).toBe(503);
        expect(failing.body).toMatchObject({
            status: 'unavailable',
            database: {
                status: 'failing',
                message: 'The database is not answering: connect ECONNREFUSED 127.0.0.1:5432.',
            },
        });
    } finally {
        db.start();
    }
    // The next probe reads the database itself, which answers again.
    expect(await health()).toEqual({ status: 200, body: { status: 'ok' } });
});

it('says so within a second when nothing else has met the failure', async () => {
    expect((await health()).status).toBe(200);
    const db = stoppableDatabase(t.app);
    db.stop();
    const stoppedAt = performance.now();
    try {
        let answer = await health();
        while (answer.status === 200 && performance.now() - stoppedAt < 5000) {
            await sleep(50);
            answer = await health();
        }
        expect(answer.status).toBe(503);
        expect(answer.body.database.message).toBe(
            'The database is not answering: connect ECONNREFUSED 127.0.0.1:5432.'
        );
        expect(performance.now() - stoppedAt).toBeLessThan(HEALTH_REUSE_MS + 200);
    } finally {
        db.start();
    }
});
