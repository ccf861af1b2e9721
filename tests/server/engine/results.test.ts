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

describe('ResultWriter with history', () => {
    it('writes every check and the closed buckets in its flush, keeps them when the database fails, and the open ones at stop', async () => {
        const { HistoryBuffer } = await import('../../../server/history/buffer');
        const writer = new ResultWriter(t.app.ctx.db, t.app.log, undefined, new HistoryBuffer());
        const count = async (table: string) =>
            Number(
                (
                    (await t.app.ctx.db.execute(
                        `select count(*) as n from ${table} where monitor_id = ${target.id}`
                    )) as unknown as {
                        rows: { n: unknown }[];
                    }
                ).rows[0]?.n
            );
        const at = (ms: number, level: 'ok' | 'error') => ({
            ...record(0),
            history: { sample: { monitorId: target.id, t: ms, level, latencyMs: 12, value: null, message: null } },
        });
        const base = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000;
        writer.record(at(base + 1000, 'ok'));
        writer.record(at(base + 2000, 'error'));
        await writer.flush();
        expect(await count('check_results')).toBe(2);
        expect(await count('history_5m')).toBe(0); // still open
        // The database refuses the next flush: nothing is lost, it is written with the next one.
        await t.app.ctx.db.execute('alter table check_results rename to check_results_away');
        writer.record(at(base + 6 * 60_000, 'ok'));
        await writer.flush();
        await t.app.ctx.db.execute('alter table check_results_away rename to check_results');
        await writer.flush();
        expect(await count('check_results')).toBe(3);
        expect(await count('history_5m')).toBe(1); // the first bucket closed when the 6th minute's check came
        await writer.flush(true);
        expect(await count('history_5m')).toBe(2);
        expect(await count('history_1h')).toBe(1);
        expect(await count('history_1d')).toBe(1);
    });
});
