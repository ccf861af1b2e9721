import { Engine } from '../../../server/engine/engine';
import { createTestApp, seedCompany, type TestApp } from '../helpers';
import { seedNode } from '../seed';

/** The console can be stopped while its engine still starts (states, the read thread): nothing may run after that. */
let t: TestApp;
beforeAll(async () => {
    t = await createTestApp();
});
afterAll(() => t.close());

it('an engine stopped while it starts runs no check afterwards', async () => {
    const company = await seedCompany(t.app, 'Stopping');
    await seedNode(t.app, {
        companyId: company,
        services: [{ type: 'rpc', address: 'http://127.0.0.1:9' }],
        monitor: { type: 'blockCheck', settings: { sleep_duration_seconds: 1 } },
    });
    const engine = new Engine(t.app.ctx, t.app.log, { startSpreadMs: 10 });
    const starting = engine.start();
    await engine.stop();
    await starting;
    // Long enough for the monitor's first check (due within 10 ms) and a second one.
    await new Promise((r) => setTimeout(r, 1500));
    expect(engine.stats.scheduler.started).toBe(0);
    expect(engine.running).toBe(false);
});
