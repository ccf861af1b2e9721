import { intervalMsOf } from '../../../server/engine/engine';
import { Scheduler } from '../../../server/engine/scheduler';
import type { MonitorTarget } from '../../../server/engine/targets';

/**
 * One company's slow checks must not delay another company's. Jobs are grouped by company; a group
 * holds at most its cap of slots, and a free slot goes to the group with the fewest jobs in flight.
 */
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function harness(concurrency: number) {
    const started: number[] = [];
    const hanging: (() => void)[] = [];
    /** Jobs of ids below 100 hang until released; the others finish at once. */
    const scheduler = new Scheduler(
        async (id) => {
            started.push(id);
            if (id < 100) await new Promise<void>((r) => hanging.push(r));
        },
        concurrency,
        () => Date.now()
    );
    const stop = async () => {
        const done = scheduler.stop();
        for (const release of hanging) release();
        await done;
    };
    return { scheduler, started, hanging, stop, runsOf: (id: number) => started.filter((s) => s === id).length };
}

it("runs a company's checks on time while another company's hanging checks fill its own share", async () => {
    const { scheduler, started, stop, runsOf } = harness(4);
    for (let id = 1; id <= 20; id++) scheduler.upsert(id, 1000, 10, 1); // company 1: 20 checks that never answer
    scheduler.upsert(100, 1000, 500, 2); // company 2: one check each second
    scheduler.setGroupLimits(new Map([[1, 2]]));
    scheduler.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runsOf(100)).toBeGreaterThanOrEqual(9);
    // Company 1 holds no more than its two slots, and its other checks skip their cycles instead of piling up.
    expect(started.filter((id) => id < 100)).toHaveLength(2);
    expect(scheduler.stats.skipped).toBeGreaterThan(0);
    await stop();
});

it('gives a free slot to the company with the fewest checks in flight, not to the one that queued first', async () => {
    const { scheduler, started, hanging, stop } = harness(2);
    for (let id = 1; id <= 10; id++) scheduler.upsert(id, 60_000, 1, 1); // company 1, no cap of its own
    scheduler.upsert(50, 60_000, 1, 2); // company 2, one slow check
    scheduler.start();
    await vi.advanceTimersByTimeAsync(5);
    // Both slots went out, one to each company, though company 1 had ten checks due in the same tick.
    expect(started).toHaveLength(2);
    expect(started.filter((id) => id === 50)).toHaveLength(1);
    // Company 1's check ends: its next check takes the slot (company 2 has nothing queued).
    hanging[started.findIndex((id) => id !== 50)]?.();
    await vi.advanceTimersByTimeAsync(5);
    expect(started).toHaveLength(3);
    expect(started[2]).not.toBe(50);
    await stop();
});

it('runs a monitor set below its company minimum at the minimum', () => {
    const target = (sleep: number, min?: number): MonitorTarget => ({
        id: 1,
        name: 'height',
        type: 'blockCheck',
        settings: { miss_tolerance: 3, miss_tolerance_period_seconds: 30, sleep_duration_seconds: sleep },
        key: '',
        configuration: { id: 1, name: 'Hub', chain: 'cosmoshub', companyId: 1 },
        server: null,
        services: [],
        quota: min === undefined ? undefined : { maxConcurrentChecks: 64, minIntervalSeconds: min },
    });
    expect(intervalMsOf(target(1, 5))).toBe(5000);
    expect(intervalMsOf(target(30, 5))).toBe(30_000);
    expect(intervalMsOf(target(1))).toBe(1000);
});
