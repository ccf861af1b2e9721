import { type Bucket, emptyBucket } from './rollup';

/**
 * The rollup buckets of one monitor and day in a few bytes each (history_days.hours / five_minutes): a row per
 * bucket cost ~160 bytes with its index, this ~10 for a plain one. Per bucket with checks, in time order:
 *   a flags byte; varint slots skipped since the previous bucket (flag 32); varint checks; warnings, errors (64);
 *   with latency (1): the count when not every check's (128), the sum and the max above the average in tenths of a ms;
 *   with a reading (flag 2): as decimals (scale 10^k, k in flag bits 3–4) the last value's change since the previous
 *   bucket's, (last − min) and (max − last) as varints, or (flag 4) the three values as float64.
 * Latency is kept to a tenth of a millisecond, the precision the API answers with; a reading with more than three
 * decimals (a used %) to three, a thousandth of a percent point: 24 bytes a bucket would be most of the day's size.
 */

const VERSION = 1;
const HAS_LATENCY = 1;
const HAS_VALUE = 2;
const FLOAT_VALUE = 4;
const SCALE_SHIFT = 3;
const SKIPS = 32;
const PROBLEMS = 64;
const SOME_LATENCY = 128;
/** Integers up to this survive a float64 and the varint arithmetic below exactly. */
const SAFE = 2 ** 51;

class Writer {
    private buf = new Uint8Array(256);
    length = 0;

    private room(n: number): void {
        if (this.length + n <= this.buf.length) return;
        const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
        next.set(this.buf.subarray(0, this.length));
        this.buf = next;
    }

    byte(b: number): void {
        this.room(1);
        this.buf[this.length++] = b;
    }

    /** Unsigned LEB128, by arithmetic: bit operators would cut numbers to 32 bits. */
    varint(n: number): void {
        let v = Math.max(0, Math.round(n));
        while (v >= 128) {
            this.byte((v % 128) + 128);
            v = Math.floor(v / 128);
        }
        this.byte(v);
    }

    signed(n: number): void {
        this.varint(n < 0 ? -2 * n - 1 : 2 * n);
    }

    float(n: number): void {
        this.room(8);
        new DataView(this.buf.buffer).setFloat64(this.length, n);
        this.length += 8;
    }

    bytes(): Uint8Array {
        return this.buf.slice(0, this.length);
    }
}

class Reader {
    private at = 0;
    private readonly view: DataView;

    constructor(private readonly buf: Uint8Array) {
        this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    }

    get done(): boolean {
        return this.at >= this.buf.length;
    }

    byte(): number {
        const b = this.buf[this.at++];
        if (b === undefined) throw new Error('packed history ends early');
        return b;
    }

    varint(): number {
        let v = 0;
        let scale = 1;
        for (;;) {
            const b = this.byte();
            v += (b % 128) * scale;
            if (b < 128) return v;
            scale *= 128;
        }
    }

    signed(): number {
        const z = this.varint();
        return z % 2 === 1 ? -(z + 1) / 2 : z / 2;
    }

    float(): number {
        const v = this.view.getFloat64(this.at);
        this.at += 8;
        return v;
    }
}

/**
 * The smallest k (0..3) that writes all of `values` as whole numbers of 10^-k; 3 (rounded) for other fractions, or
 * null for numbers too large to scale.
 */
function decimals(values: number[]): number | null {
    if (!values.every((v) => Math.abs(v * 1000) < SAFE)) return null;
    for (let k = 0; k < 3; k++) {
        const f = 10 ** k;
        if (values.every((v) => Math.round(v * f) / f === v)) return k;
    }
    return 3;
}

/** What a reading's change is written against: the previous one at the same scale, when that is exact. */
const base = (prev: number, f: number) => (Math.abs(prev * f) < SAFE ? Math.round(prev * f) : 0);

/** Buckets of one monitor and day, each of `sizeMs`, starting at `day`, in any order (merged when two share a slot). */
export function packBuckets(buckets: Bucket[], day: number, sizeMs: number): Uint8Array {
    const w = new Writer();
    w.byte(VERSION);
    let nextSlot = 0;
    let prevLast = 0;
    for (const b of [...buckets].sort((x, y) => x.bucket - y.bucket)) {
        const slot = Math.floor((b.bucket - day) / sizeMs);
        if (slot < nextSlot) throw new Error('packBuckets needs one bucket per slot of its day');
        const skipped = slot - nextSlot;
        nextSlot = slot + 1;
        const total = b.ok + b.warning + b.error;
        const hasLatency = b.latencyCount > 0;
        const value = b.valueLast !== null ? [b.valueLast, b.valueMin ?? b.valueLast, b.valueMax ?? b.valueLast] : null;
        const k = value ? decimals(value) : null;
        let flags = hasLatency ? HAS_LATENCY : 0;
        if (value) flags |= HAS_VALUE | (k === null ? FLOAT_VALUE : k << SCALE_SHIFT);
        if (skipped > 0) flags |= SKIPS;
        if (b.warning > 0 || b.error > 0) flags |= PROBLEMS;
        if (hasLatency && b.latencyCount !== total) flags |= SOME_LATENCY;
        w.byte(flags);
        if (flags & SKIPS) w.varint(skipped);
        w.varint(total);
        if (flags & PROBLEMS) {
            w.varint(b.warning);
            w.varint(b.error);
        }
        if (hasLatency) {
            const sum = Math.round(b.latencySumMs * 10);
            if (flags & SOME_LATENCY) w.varint(b.latencyCount);
            w.varint(sum);
            w.signed(Math.round((b.latencyMaxMs ?? 0) * 10) - Math.floor(sum / b.latencyCount));
        }
        if (value) {
            const [last, min, max] = value as [number, number, number];
            if (k === null) {
                w.float(last);
                w.float(min);
                w.float(max);
                prevLast = last;
            } else {
                const f = 10 ** k;
                const [l, lo, hi] = [last, min, max].map((v) => Math.round(v * f)) as [number, number, number];
                w.signed(l - base(prevLast, f));
                w.varint(l - lo);
                w.varint(hi - l);
                // What the reader gets back, which the next bucket's change is written against.
                prevLast = l / f;
            }
        }
    }
    return w.bytes();
}

export function unpackBuckets(bytes: Uint8Array, monitorId: number, day: number, sizeMs: number): Bucket[] {
    const r = new Reader(bytes);
    if (r.byte() !== VERSION) throw new Error('packed history of an unknown version');
    const out: Bucket[] = [];
    let slot = 0;
    let prevLast = 0;
    while (!r.done) {
        const flags = r.byte();
        if (flags & SKIPS) slot += r.varint();
        const b = emptyBucket(monitorId, day + slot * sizeMs);
        slot++;
        const total = r.varint();
        if (flags & PROBLEMS) {
            b.warning = r.varint();
            b.error = r.varint();
        }
        b.ok = total - b.warning - b.error;
        if (flags & HAS_LATENCY) {
            b.latencyCount = flags & SOME_LATENCY ? r.varint() : total;
            const sum = r.varint();
            b.latencySumMs = sum / 10;
            b.latencyMaxMs = (Math.floor(sum / b.latencyCount) + r.signed()) / 10;
        }
        if (flags & HAS_VALUE) {
            if (flags & FLOAT_VALUE) {
                b.valueLast = r.float();
                b.valueMin = r.float();
                b.valueMax = r.float();
            } else {
                const f = 10 ** ((flags >> SCALE_SHIFT) & 3);
                const last = base(prevLast, f) + r.signed();
                b.valueLast = last / f;
                b.valueMin = (last - r.varint()) / f;
                b.valueMax = (last + r.varint()) / f;
            }
            prevLast = b.valueLast;
        }
        out.push(b);
    }
    return out;
}

/**
 * Readings of one series and day at fixed slots (disk use every 15 minutes), in a few bytes each: per reading in time
 * order, varint slots skipped since the previous one and the change in thousandths since it (zigzag varint).
 */
export function packSeries(points: { t: number; v: number }[], day: number, slotMs: number): Uint8Array {
    const w = new Writer();
    w.byte(VERSION);
    let nextSlot = 0;
    let prev = 0;
    for (const p of [...points].sort((a, b) => a.t - b.t)) {
        const slot = Math.floor((p.t - day) / slotMs);
        if (slot < nextSlot) throw new Error('packSeries needs one reading per slot of its day');
        w.varint(slot - nextSlot);
        nextSlot = slot + 1;
        const v = Math.round(p.v * 1000);
        w.signed(v - prev);
        prev = v;
    }
    return w.bytes();
}

export function unpackSeries(bytes: Uint8Array, day: number, slotMs: number): { t: number; v: number }[] {
    const r = new Reader(bytes);
    if (r.byte() !== VERSION) throw new Error('packed history of an unknown version');
    const out: { t: number; v: number }[] = [];
    let slot = 0;
    let v = 0;
    while (!r.done) {
        slot += r.varint();
        v += r.signed();
        out.push({ t: day + slot * slotMs, v: v / 1000 });
        slot++;
    }
    return out;
}
