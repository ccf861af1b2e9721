// Simulated checks for bench:history: a monitor's day at one check a minute, with outages, slow spells and the
// reading its type charts (none for an HTTP check, a block height, a disk's used %).
import type { Day } from '../../server/history/days';
import {
    addSample,
    type Bucket,
    type CheckSample,
    emptyBucket,
    FIVE_MINUTES_MS,
    HOUR_MS,
    mergeBuckets,
} from '../../server/history/rollup';

export function prng(seed: number): () => number {
    let s = seed >>> 0;
    return () => {
        s = (s * 1_664_525 + 1_013_904_223) >>> 0;
        return s / 2 ** 32;
    };
}

type Kind = 'http' | 'height' | 'disk';

/** One simulated monitor: a kind, a usual latency, and where its outage and reading stand. */
export class SimMonitor {
    readonly kind: Kind;
    private readonly latency: number;
    private outageLeft = 0;
    private height = 20_000_000;
    private used: number;
    private readonly growth: number;

    constructor(
        readonly id: number,
        private readonly rand: () => number
    ) {
        const k = rand();
        // Most monitors are node and HTTP checks; a fifth chart a height, a tenth a disk.
        this.kind = k < 0.7 ? 'http' : k < 0.9 ? 'height' : 'disk';
        this.latency = 40 + 260 * rand();
        this.used = 30 + 40 * rand();
        this.growth = rand() * 0.0005; // percent points a minute
    }

    /** The check at `t`: an outage (1 to 30 minutes) starts about every 3 days, a warning now and then. */
    check(t: number): CheckSample {
        const r = this.rand;
        if (this.outageLeft === 0 && r() < 1 / (3 * 1440)) this.outageLeft = 1 + Math.floor(r() * 30);
        const down = this.outageLeft > 0;
        if (down) this.outageLeft--;
        this.height += 10;
        this.used = Math.min(99, this.used + this.growth * r() * 2);
        const level = down ? 'error' : r() < 0.002 ? 'warning' : 'ok';
        const value = this.kind === 'height' ? (down ? null : this.height) : this.kind === 'disk' ? this.used : null;
        return {
            monitorId: this.id,
            t,
            level,
            latencyMs: down && r() < 0.5 ? null : this.latency * (0.8 + 0.4 * r()) + (r() < 0.01 ? 2000 * r() : 0),
            value,
            message: level === 'ok' ? null : 'The check did not finish within 44 s',
        };
    }

    /** A whole day, as the packer stores it: 288 five-minute buckets and 24 hours. */
    day(day: number, withFiveMinutes: boolean): Day {
        const five: Bucket[] = [];
        for (let slot = 0; slot < 288; slot++) {
            const b = emptyBucket(this.id, day + slot * FIVE_MINUTES_MS);
            for (let m = 0; m < 5; m++) addSample(b, this.check(b.bucket + m * 60_000));
            five.push(b);
        }
        const hours: Bucket[] = [];
        for (let h = 0; h < 24; h++) {
            const parts = five.slice(h * 12, h * 12 + 12);
            hours.push({ ...parts.reduce((a, b) => mergeBuckets(a, b)), bucket: day + h * HOUR_MS });
        }
        return { monitorId: this.id, day, hours, fiveMinutes: withFiveMinutes ? five : null };
    }
}
