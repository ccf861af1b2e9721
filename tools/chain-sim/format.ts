// Small encoders shared by the protocol files: Go-style time and float text, hex/base64 conversion.
import { toBase64 } from '@cosmjs/encoding';
import { hexToBytes } from './keys';

/** Go's zero time, used for absent votes. */
export const ZERO_TIME = '0001-01-01T00:00:00Z';
/** Unix epoch, used by the SDK for "never" (jailed_until, unbonding_time). */
export const EPOCH_TIME = '1970-01-01T00:00:00Z';
/** jailed_until of a tombstoned validator. */
export const TOMBSTONE_TIME = '9999-12-31T23:59:59Z';

/**
 * RFC3339 with nanoseconds as Go's time.RFC3339Nano prints it: trailing zeros of the fraction are dropped
 * (`…57.12519517Z`) and a whole second has no fraction at all. Times are kept as bigint nanoseconds because a
 * JS number cannot hold nanoseconds since 1970 exactly.
 */
export function rfc3339Nano(ns: bigint): string {
    const ms = Number(ns / 1_000_000n);
    const base = new Date(ms).toISOString().slice(0, 19);
    const frac = (ns % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
    return frac ? `${base}.${frac}Z` : `${base}Z`;
}

export function msToNs(ms: number): bigint {
    return BigInt(Math.floor(ms)) * 1_000_000n;
}

/**
 * A float as Go's strconv.FormatFloat(f, 'g', -1, 64) prints it, which is what Prometheus' text encoder uses:
 * shortest digits, exponent form when the decimal exponent is < -4 or >= 6 (`1.4413293e+07`), two-digit exponent.
 */
export function goFloat(value: number): string {
    if (Number.isNaN(value)) return 'NaN';
    if (value === Number.POSITIVE_INFINITY) return '+Inf';
    if (value === Number.NEGATIVE_INFINITY) return '-Inf';
    if (value === 0) return '0';
    const [mantissa, expText] = value.toExponential().split('e');
    const exp = Number(expText);
    if (exp < -4 || exp >= 6) {
        const sign = exp < 0 ? '-' : '+';
        return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
    }
    // In this range JS prints plain decimals with the same shortest digits as Go.
    return String(value);
}

export function hexToB64(hex: string): string {
    return hex === '' ? '' : toBase64(hexToBytes(hex));
}

/** sdk.Dec (LegacyDec) text: always 18 fractional digits, e.g. `0.050000000000000000`. */
export function dec(value: number | bigint | string): string {
    const [int, frac = ''] = String(value).split('.');
    return `${int}.${frac.padEnd(18, '0').slice(0, 18)}`;
}
