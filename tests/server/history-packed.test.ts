import { packBuckets, unpackBuckets } from '../../server/history/packed';
import { type Bucket, emptyBucket, FIVE_MINUTES_MS } from '../../server/history/rollup';

const DAY = Date.UTC(2026, 10, 27);

function bucket(slot: number, over: Partial<Bucket>): Bucket {
    return { ...emptyBucket(7, DAY + slot * FIVE_MINUTES_MS), ...over };
}

describe('packed buckets', () => {
    it('give back counts, latency to a tenth of a millisecond, and readings (a used % to a thousandth)', () => {
        const buckets = [
            bucket(0, {
                ok: 5,
                latencyCount: 5,
                latencySumMs: 612.34,
                latencyMaxMs: 201.5,
                valueLast: 20_000_123,
                valueMin: 20_000_100,
                valueMax: 20_000_123,
            }),
            bucket(1, { ok: 3, warning: 1, error: 1, latencyCount: 4, latencySumMs: 44_000 * 4, latencyMaxMs: 44_000 }),
            bucket(5, { error: 5, valueLast: 73.456789, valueMin: 70.1, valueMax: 80.25 }),
            bucket(6, {
                ok: 1,
                latencyCount: 1,
                latencySumMs: 0.04,
                latencyMaxMs: 0.04,
                valueLast: -3.5,
                valueMin: -4,
                valueMax: -3.5,
            }),
            bucket(287, { ok: 1, valueLast: 2 ** 52, valueMin: 0, valueMax: 2 ** 52 }),
        ];
        const bytes = packBuckets(buckets, DAY, FIVE_MINUTES_MS);
        const back = unpackBuckets(bytes, 7, DAY, FIVE_MINUTES_MS);
        expect(back).toEqual([
            { ...buckets[0], latencySumMs: 612.3 },
            buckets[1],
            { ...buckets[2], valueLast: 73.457 },
            { ...buckets[3], latencySumMs: 0, latencyMaxMs: 0 },
            buckets[4],
        ]);
    });

    it('keep a plain 5-minute bucket (5 checks ok, latency, a growing height) in about 10 bytes', () => {
        const day = Array.from({ length: 288 }, (_, i) =>
            bucket(i, {
                ok: 5,
                latencyCount: 5,
                latencySumMs: 5 * (100 + (i % 40)),
                latencyMaxMs: 150 + (i % 40),
                valueLast: 20_000_000 + 50 * i,
                valueMin: 19_999_955 + 50 * i,
                valueMax: 20_000_000 + 50 * i,
            })
        );
        const bytes = packBuckets(day, DAY, FIVE_MINUTES_MS);
        expect(unpackBuckets(bytes, 7, DAY, FIVE_MINUTES_MS)).toEqual(day);
        expect(bytes.length / 288).toBeLessThan(12);
    });
});
