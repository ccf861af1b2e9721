import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from './helpers';

/**
 * PGlite runs on the server's only thread: a chain of awaited statements (an engine batch, a transaction) must still
 * let the event loop turn, or every request, even one answered from memory, waits for the whole chain. (PostgreSQL's
 * driver waits on a socket between statements, so the same holds there.)
 */
const N = 500;
let t: TestApp;

beforeAll(async () => {
    t = await createTestApp();
});
afterAll(() => t.close());

/** How many statements of the chain had run when a callback queued on the event loop at its start ran. */
async function statementsBeforeTurn(chain: (counted: () => void) => Promise<void>): Promise<number> {
    let done = 0;
    let seen = -1;
    setImmediate(() => {
        seen = done;
    });
    await chain(() => done++);
    return seen;
}

it('lets the event loop turn during a long chain of statements', async () => {
    const seen = await statementsBeforeTurn(async (counted) => {
        for (let i = 0; i < N; i++) {
            await t.app.ctx.db.execute(sql`select ${i}::int`);
            counted();
        }
    });
    expect(seen).toBeGreaterThanOrEqual(0);
    expect(seen).toBeLessThan(N);
});

it('lets the event loop turn inside a long transaction', async () => {
    const seen = await statementsBeforeTurn((counted) =>
        t.app.ctx.db.transaction(async (tx) => {
            for (let i = 0; i < N; i++) {
                await tx.execute(sql`select ${i}::int`);
                counted();
            }
        })
    );
    expect(seen).toBeGreaterThanOrEqual(0);
    expect(seen).toBeLessThan(N);
});
