import { daysUntilFull } from '../../server/history/projection';
import {
    addSample,
    type Bucket,
    BucketAccumulator,
    type CheckSample,
    emptyBucket,
    mergeBuckets,
} from '../../server/history/rollup';

const sample = (
    t: number,
    level: CheckSample['level'],
    latencyMs: number | null,
    value: number | null
): CheckSample => ({
    monitorId: 7,
    t,
    level,
    latencyMs,
    value,
    message: null,
});

describe('rollup math', () => {
    it('counts levels, sums latency for the average, keeps max and the reading last/min/max', () => {
        const b = emptyBucket(7, 0);
        addSample(b, sample(1, 'ok', 10, 5));
        addSample(b, sample(2, 'error', null, null));
        addSample(b, sample(3, 'warning', 30, 2));
        addSample(b, sample(4, 'ok', 20, 4));
        expect(b).toMatchObject({ ok: 2, warning: 1, error: 1, latencyCount: 3, latencySumMs: 60, latencyMaxMs: 30 });
        expect(b).toMatchObject({ valueLast: 4, valueMin: 2, valueMax: 5 });
    });

    it('merging two halves of a bucket equals building it at once', () => {
        const samples = [
            sample(1, 'ok', 10, 5),
            sample(2, 'warning', 50, 9),
            sample(3, 'ok', 5, 1),
            sample(4, 'error', 7, null),
        ];
        const whole = emptyBucket(7, 0);
        for (const s of samples) addSample(whole, s);
        const a = emptyBucket(7, 0);
        const b = emptyBucket(7, 0);
        for (const s of samples.slice(0, 2)) addSample(a, s);
        for (const s of samples.slice(2)) addSample(b, s);
        expect(mergeBuckets(a, b)).toEqual(whole);
    });

    it('closes a bucket when the next check falls in a later one, and drains the open ones', () => {
        const acc = new BucketAccumulator(300_000);
        const closed: Bucket[] = [];
        acc.add(sample(10_000, 'ok', 1, null), closed);
        acc.add(sample(290_000, 'error', 3, null), closed);
        expect(closed).toEqual([]);
        acc.add(sample(310_000, 'ok', 2, null), closed);
        expect(closed).toHaveLength(1);
        expect(closed[0]).toMatchObject({ bucket: 0, ok: 1, error: 1, latencySumMs: 4 });
        acc.drain(closed);
        expect(closed[1]).toMatchObject({ bucket: 300_000, ok: 1 });
        expect(acc.size).toBe(0);
    });
});

describe('days until full', () => {
    const HOUR = 3_600_000;
    it('projects a steady fill to 100 %', () => {
        // 2 % a day from 60 %, sampled hourly for 3 days: 66 % now, 17 days to go.
        const points = Array.from({ length: 73 }, (_, h) => ({ t: h * HOUR, usedPercent: 60 + (2 * h) / 24 }));
        expect(daysUntilFull(points)).toBeCloseTo(17, 5);
    });

    it('fits through noise and looks at the last 7 days only', () => {
        const old = Array.from({ length: 48 }, (_, h) => ({ t: h * HOUR, usedPercent: 10 + h }));
        const recent = Array.from({ length: 7 * 24 }, (_, h) => ({
            t: (30 * 24 + h) * HOUR,
            usedPercent: 50 + h / 24 + (h % 2 ? 0.3 : -0.3),
        }));
        const days = daysUntilFull([...old, ...recent]);
        expect(days).not.toBeNull();
        expect(days as number).toBeGreaterThan(42);
        expect(days as number).toBeLessThan(44);
    });

    it('is null when flat, shrinking or with too little data, and 0 when already full', () => {
        expect(daysUntilFull([0, 1, 2, 3].map((h) => ({ t: h * HOUR, usedPercent: 40 })))).toBeNull();
        expect(daysUntilFull([0, 1, 2, 3].map((h) => ({ t: h * HOUR, usedPercent: 40 - h })))).toBeNull();
        expect(
            daysUntilFull([
                { t: 0, usedPercent: 1 },
                { t: HOUR, usedPercent: 2 },
            ])
        ).toBeNull();
        expect(daysUntilFull([0, 1, 2].map((h) => ({ t: h * HOUR, usedPercent: 99 + h })))).toBe(0);
    });
});
