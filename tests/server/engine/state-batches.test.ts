import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { monitorStates, monitors, outbox } from '../../../server/db/schema';
import type { CheckRecord } from '../../../server/engine/results';
import { ResultWriter } from '../../../server/engine/results';
import type { MonitorTarget } from '../../../server/engine/targets';
import { INITIAL_ALERT_STATE } from '../../../server/engine/transitions';
import { createTestApp, seedCompany, type TestApp } from '../helpers';
import { seedNode } from '../seed';

/**
 * The cluster profile saves results without a transition many monitors to a statement: each keeps its compare-and-set
 * on the state row, so a late or replayed result is dropped whatever it shares the statement with, and a transition
 * among them still makes one incident and one ALERT however many workers report it.
 */
let t: TestApp;
const targets: MonitorTarget[] = [];
let incidentId = '';

beforeAll(async () => {
    t = await createTestApp();
    const companyId = await seedCompany(t.app, 'Acme');
    for (const name of ['a', 'b', 'c']) {
        const seeded = await seedNode(t.app, {
            companyId,
            services: [],
            monitor: { type: 'urlCheck', name, settings: { address: 'http://127.0.0.1:9' } },
            ...(name === 'a' ? { telegram: { chatId: '42' } } : {}),
        });
        targets.push({
            id: seeded.monitorId,
            name,
            type: 'urlCheck',
            settings: {},
            key: '',
            configuration: { id: seeded.configurationId, name: 'Sim mainnet', chain: 'cosmoshub', companyId },
            server: { id: seeded.serverId, name: 'validator-1', address: 'http://127.0.0.1' },
            services: [],
        });
    }
    incidentId = randomUUID();
});
afterAll(() => t?.close());

const target = (i: number) => targets[i] as MonitorTarget;

/** A result of monitor `i` for `slot`; `alert` makes it the transition into Error that raises an ALERT. */
function result(i: number, slot: number, opts: { error?: string; alert?: boolean } = {}): CheckRecord {
    const failing = opts.alert === true;
    return {
        target: target(i),
        status: opts.error === undefined && !failing,
        lastError: opts.error ?? (failing ? 'down' : null),
        checkedAt: new Date(slot),
        state: {
            slot,
            alert: failing
                ? { status: 'alerting', since: slot, lastNotifiedAt: slot, incidentId }
                : INITIAL_ALERT_STATE,
            memory: { slot },
        },
        transition: failing
            ? {
                  state: { status: 'alerting', since: slot, lastNotifiedAt: slot, incidentId },
                  notification: { kind: 'alert', incidentId, since: slot, message: 'down' },
                  change: 'Entered Error: down',
              }
            : { state: INITIAL_ALERT_STATE, notification: null, change: null },
    };
}

const slots = async () => {
    const rows = await t.app.ctx.db
        .select()
        .from(monitorStates)
        .where(
            inArray(
                monitorStates.monitorId,
                targets.map((x) => x.id)
            )
        );
    return targets.map((x) => (rows.find((r) => r.monitorId === x.id)?.state as { slot?: number } | undefined)?.slot);
};

const lastErrors = async () => {
    const rows = await t.app.ctx.db
        .select({ id: monitors.id, lastError: monitors.lastError })
        .from(monitors)
        .where(
            inArray(
                monitors.id,
                targets.map((x) => x.id)
            )
        );
    return targets.map((x) => rows.find((r) => r.id === x.id)?.lastError);
};

it('drops a replayed or late result that shares its statement with saved ones, health included', async () => {
    const writer = new ResultWriter(t.app.ctx.db, t.app.log);
    // First checks: no state row yet.
    expect(await Promise.all([0, 1, 2].map((i) => writer.commit(result(i, 1000), null)))).toEqual([true, true, true]);
    expect(await slots()).toEqual([1000, 1000, 1000]);
    expect(await writer.stateOf(target(1).id)).toMatchObject({ slot: 1000 });

    // In one batch: a to the next slot; b's first check replayed (its row holds a slot now); c a result for a slot
    // older than the saved one.
    const saved = await Promise.all([
        writer.commit(result(0, 2000), 1000),
        writer.commit(result(1, 1000, { error: 'replayed' }), null),
        writer.commit(result(2, 900, { error: 'late' }), 1000),
    ]);
    expect(saved).toEqual([true, false, false]);
    expect(await slots()).toEqual([2000, 1000, 1000]);
    expect(await lastErrors()).toEqual([null, null, null]);

    // The same slot reported by two workers at once: one of them is saved.
    const other = new ResultWriter(t.app.ctx.db, t.app.log);
    const twice = await Promise.all([
        writer.commit(result(1, 2000, { error: 'first' }), 1000),
        other.commit(result(1, 2000, { error: 'second' }), 1000),
    ]);
    expect(twice.filter(Boolean)).toHaveLength(1);
    expect(await slots()).toEqual([2000, 2000, 1000]);
});

it('a transition among batched results makes exactly one ALERT when two workers report it', async () => {
    const [one, two] = [new ResultWriter(t.app.ctx.db, t.app.log), new ResultWriter(t.app.ctx.db, t.app.log)];
    const [before] = await slots();
    const saved = await Promise.all(
        [one, two].flatMap((w) => [
            w.commit(result(0, 3000, { alert: true }), before ?? null),
            w.commit(result(1, 3000), 2000),
            w.commit(result(2, 3000), 1000),
        ])
    );
    // Per monitor (a, b, c), one of the two workers' results was saved.
    expect([0, 1, 2].map((i) => [saved[i], saved[i + 3]].filter(Boolean).length)).toEqual([1, 1, 1]);
    expect(await slots()).toEqual([3000, 3000, 3000]);
    const alerts = await t.app.ctx.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.monitorId, target(0).id), eq(outbox.kind, 'alert')));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.incidentId).toBe(incidentId);
});
