import { isIP } from 'node:net';
import { z } from 'zod';
import { refusalReason, refusedHostName } from '../clients/address-guard';

/** A required display name, trimmed. */
export const nameField = (message = 'Name is required') =>
    z.string({ error: message }).trim().min(1, message).max(200, 'Name must be at most 200 characters');

/** A reference to another row: react-admin selects may send numeric strings. */
export const refId = (message: string) =>
    z.preprocess(
        (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
        z.number({ error: message }).int(message).positive(message).max(2_147_483_647, message)
    );

/** An optional reference: empty, null or absent mean none. */
export const optionalRefId = (message: string) =>
    z.preprocess(
        (v) => (v === '' || v === undefined ? null : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
        z.number({ error: message }).int(message).positive(message).max(2_147_483_647, message).nullable()
    );

/** A flag that react-admin may leave out; true unless said otherwise (new rows default to enabled, spec §4). */
export const enabledFlag = z.boolean({ error: 'is_enabled must be true or false' }).default(true);

function httpUrl(value: string): URL | null {
    try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
    } catch {
        return null;
    }
}

/** Why a URL must not be saved as a check target (cloud metadata, link-local), or null. The client re-checks at connect. */
export function refusedTarget(value: string): string | null {
    const url = httpUrl(value);
    if (!url) return null;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (refusedHostName(host)) return 'Address must not point at a cloud metadata host';
    // Private ranges are allowed here (validators live on private networks); only always-refused ranges are judged.
    return isIP(host) && refusalReason(host, true)
        ? 'Address must not point at a cloud metadata or link-local address'
        : null;
}

/** A server or service address: an http(s) URL that is not a metadata endpoint (security item 26). */
export const targetAddress = z
    .string({ error: 'Address must be an http(s) URL' })
    .trim()
    .max(2048, 'Address must be at most 2048 characters')
    .refine((v) => httpUrl(v) !== null, 'Address must be an http(s) URL')
    .superRefine((v, ctx) => {
        const why = refusedTarget(v);
        if (why) ctx.addIssue({ code: 'custom', message: why });
    });
