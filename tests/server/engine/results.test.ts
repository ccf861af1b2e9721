import { eq } from 'drizzle-orm';
import { monitorStates } from '../../../server/db/schema';
import type { CheckRecord } from '../../../server/engine/results';
import { ResultWriter } from '../../../server/engine/results';
import type { MonitorTarget } from '../../../server/engine/targets';
import { INITIAL_ALERT_STATE } from '../../../server/engine/transitions';
import type { TestApp } from '../helpers';
import { createTestApp, seedCompany } from '../helpers';
import { seedNode } from '../seed';

let t: TestApp;
let target: MonitorTarget;

beforeAll(async () => {
    t = await createTestApp();
    const company = await seedCompany(t.app, 'Acme');
    const { monitorId, configurationId, serverId } = await seedNode(t.app, {
        companyId: company,
        services: [],
        monitor: { type: 'urlCheck', settings: { address: 'http://127.0.0.1:9' } },
    });
    target = {
        id: monitorId,
        name: 'urlCheck',
        type: 'urlCheck',
        settings: {},
        key: '',
        configuration: { id: configurationId, name: 'Sim mainnet', chain: 'cosmoshub', companyId: company },
        server: { id: serverId, name: 'validator-1', address: 'http://127.0.0.1' },
        services: [],
    };
});
afterAll(() => t.close());

const record = (failures: number, alerting = false): CheckRecord => ({
    target,
    status: !alerting,
    lastError: alerting ? 'down' : null,
    checkedAt: new Date(),
    state: {
        alert: alerting ? { status: 'alerting', since: 1, lastNotifiedAt: 1, incidentId: 'i-1' } : INITIAL_ALERT_STATE,
        memory: { failures },
    },
    transition: {
        state: INITIAL_ALERT_STATE,
        notification: null,
        change: alerting ? 'Entered Error: down' : null,
    },
});

const saved = async () =>
    (await t.app.ctx.db.select().from(monitorStates).where(eq(monitorStates.monitorId, target.id)))[0]?.state as
        | { memory: { failures: number } }
        | undefined;

describe('ResultWriter', () => {
    it('saves memory at most once a minute, but an alert change and a clean stop at once', async () => {
        const writer = new ResultWriter(t.app.ctx.db, t.app.log);
        writer.record(record(1));
        await writer.flush();
        expect((await saved())?.memory.failures).toBe(1);

        writer.record(record(2));
        await writer.flush();
        // Health is written every time; memory waits.
        expect((await saved())?.memory.failures).toBe(1);

        writer.record(record(3, true));
        await writer.flush();
        expect(await saved()).toMatchObject({ memory: { failures: 3 }, alert: { status: 'alerting' } });

        writer.record(record(4, false));
        await writer.flush();
        expect((await saved())?.memory.failures).toBe(3);
        await writer.flush(true);
        expect((await saved())?.memory.failures).toBe(4);
    });
});
