import { outbox } from '../../../server/db/schema';
import { type Loopback, startLoopback } from '../check-support';
import { createTestApp, type TestApp } from '../helpers';

/**
 * One company's dead channel is that company's problem: /api/health and HEARTBEAT_URL reflect the console, so a
 * destination that fails every attempt neither turns health red for everyone nor stops the operator's heartbeat.
 */
let t: TestApp;
let receiver: Loopback;
let beats = 0;

beforeAll(async () => {
    receiver = await startLoopback((_req, res) => {
        beats++;
        res.end('OK');
    });
    t = await createTestApp({ heartbeatUrl: `${receiver.url}/ping`, heartbeatIntervalSeconds: 3600 });
});
afterAll(async () => {
    await t.close();
    await receiver.close();
});

const twentyMinutesAgo = () => new Date(Date.now() - 20 * 60_000);
/** What /api/health answers with where the engine runs, and what the heartbeat waits for. */
const health = () => t.app.ctx.watchdog.health();

describe("a tenant's dead channel", () => {
    it('leaves /api/health green and the heartbeat going', async () => {
        // Tried for 20 minutes, every attempt failed; the next notifications for it wait behind.
        await t.app.ctx.db.insert(outbox).values([
            {
                channelId: 501,
                kind: 'alert',
                text: 'to a receiver that is gone',
                attempts: 12,
                lastError: 'The webhook could not be reached: connection refused',
                createdAt: twentyMinutesAgo(),
                nextAttemptAt: twentyMinutesAgo(),
            },
            {
                channelId: 501,
                kind: 'reminder',
                text: 'queued behind it',
                createdAt: twentyMinutesAgo(),
                nextAttemptAt: twentyMinutesAgo(),
            },
        ]);
        await new Promise((r) => setTimeout(r, 1100)); // the outbox figures are reused for a second
        expect(await health()).toMatchObject({ ok: true, problem: null, outbox_backlog: 2 });
        const before = beats;
        expect(await t.app.ctx.watchdog.beat()).toBe(true);
        expect(beats).toBe(before + 1);
    });

    it('a notification the console never tried still turns health red and withholds the heartbeat', async () => {
        await t.app.ctx.db.insert(outbox).values({
            channelId: 502,
            kind: 'alert',
            text: 'never picked up',
            createdAt: twentyMinutesAgo(),
            nextAttemptAt: twentyMinutesAgo(),
        });
        await new Promise((r) => setTimeout(r, 1100));
        expect(await health()).toMatchObject({
            ok: false,
            problem: 'A notification has waited 20 min to be delivered',
        });
        const before = beats;
        expect(await t.app.ctx.watchdog.beat()).toBe(false);
        expect(beats).toBe(before);
    });
});
