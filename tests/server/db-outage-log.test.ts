import { stoppableDatabase } from '../support/db-faults';
import { createTestApp, type TestApp } from './helpers';

/**
 * While the database is stopped, the periodic loops (outbox every second, engine flush, reload)
 * keep failing; the log says so once when the outage starts and once when it ends, with its length.
 */
let t: TestApp;
beforeAll(async () => {
    t = await createTestApp({ engineEnabled: true });
});
afterAll(() => t.close());

const count = (text: string) => t.logs.filter((l) => l.includes(text)).length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('logs a database outage once when it starts and once when it ends', async () => {
    const db = stoppableDatabase(t.app);
    const before = t.logs.length;
    db.stop();
    // Long enough for the outbox (every second) to fail several times.
    await sleep(4500);
    const during = t.logs.slice(before);
    expect(during.filter((l) => l.includes('Database outage began'))).toHaveLength(1);
    expect(during.filter((l) => /"level":(50|40)/.test(l))).toHaveLength(1);
    expect(during.some((l) => l.includes('Failed query'))).toBe(false);

    db.start();
    await vi.waitFor(() => expect(count('Database outage ended after')).toBe(1), { timeout: 15_000, interval: 200 });
    expect(t.logs.find((l) => l.includes('Database outage ended after'))).toMatch(/ended after \d+ s/);
    expect(count('Database outage began')).toBe(1);
    expect((await t.app.inject({ url: '/api/health' })).json()).toMatchObject({ status: 'ok' });
});
