import { isIP } from 'node:net';
import { z } from 'zod';
import { CHAIN_ENDPOINT_TYPES, type ChainEndpoint, MAX_CHAIN_ENDPOINTS } from '../../common/chain-endpoints';
import {
    allowedNetworks,
    isLocalhostName,
    isMetadataAddress,
    refusalReason,
    refusedHostName,
} from '../clients/address-guard';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { companies } from '../db/schema';
import { badRequest } from '../errors';

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

/** A flag that react-admin may leave out; true unless said otherwise (new rows default to enabled, docs/spec.md §4). */
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
    // Private ranges depend on the company (refusedForCompany); only metadata is refused for everyone.
    return isIP(host) && isMetadataAddress(host)
        ? 'Address must not point at a cloud metadata or link-local address'
        : null;
}

/**
 * Why `value` may not be saved as a target of `companyId`: a loopback, private or link-local address outside the
 * company's allowed networks (security item 1), or null. Judged on IP literals in any form the URL parser accepts
 * (`2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]`) and on `localhost`; names are judged again, with their DNS
 * answers, when the egress client connects.
 */
export async function refusedForCompany(
    allowPrivate: boolean,
    db: Db,
    companyId: number,
    value: string
): Promise<string | null> {
    const url = httpUrl(value);
    if (!url) return null;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const ip = isIP(host) ? host : isLocalhostName(host) ? '127.0.0.1' : null;
    if (!ip) return null;
    // Read through `db`, the caller's transaction: the shared connection is held by it.
    const [company] = await db
        .select({ allowedNetworks: companies.allowedNetworks })
        .from(companies)
        .where(eq(companies.id, companyId));
    const why = refusalReason(ip, allowPrivate, allowedNetworks({ allowedNetworks: company?.allowedNetworks ?? [] }));
    return why ? `Address refused: ${isIP(host) ? why : `${host} is ${why.replace(/^\S+ is /, '')}`}` : null;
}

/** Throws a 400 naming `field` when `address` is outside the company's allowed networks. */
export async function assertTargetAllowed(
    allowPrivate: boolean,
    db: Db,
    companyId: number,
    field: string,
    address: unknown
): Promise<void> {
    if (typeof address !== 'string') return;
    const why = await refusedForCompany(allowPrivate, db, companyId, address);
    if (why) throw badRequest({ [field]: why });
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

const ENDPOINTS_ERROR = `chain_endpoints must be a list of at most ${MAX_CHAIN_ENDPOINTS} { type: "rpc" | "rest", address } entries`;

/**
 * A configuration's chain endpoints: each an http(s) URL under the same rules as a service address, without a
 * password (nothing here is sealed), listed once. Every refusal names `chain_endpoints` and the entry.
 */
export const chainEndpointsField = z
    .array(
        z.object(
            {
                type: z.enum(CHAIN_ENDPOINT_TYPES, { error: 'chain_endpoints: type must be rpc or rest' }),
                address: z.string({ error: 'chain_endpoints: address must be an http(s) URL' }).trim(),
            },
            { error: ENDPOINTS_ERROR }
        ),
        { error: ENDPOINTS_ERROR }
    )
    .max(MAX_CHAIN_ENDPOINTS, ENDPOINTS_ERROR)
    .superRefine((list, ctx) => {
        const seen = new Set<string>();
        list.forEach((e, i) => {
            const why = endpointRefusal(e.address);
            if (why) ctx.addIssue({ code: 'custom', message: `chain_endpoints[${i}]: ${why}` });
            const key = `${e.type} ${e.address}`;
            if (seen.has(key)) ctx.addIssue({ code: 'custom', message: `chain_endpoints[${i}]: listed twice` });
            seen.add(key);
        });
    });

function endpointRefusal(address: string): string | null {
    const url = httpUrl(address);
    if (!url || address.length > 2048) return 'Address must be an http(s) URL of at most 2048 characters';
    if (url.username || url.password)
        return 'Address must not hold credentials; put a key in the path if the provider takes one there';
    return refusedTarget(address);
}

/** Each endpoint judged against the company's allowed networks, as a service address is. */
export async function assertEndpointsAllowed(
    allowPrivate: boolean,
    db: Db,
    companyId: number,
    endpoints: readonly ChainEndpoint[] | undefined
): Promise<void> {
    for (const [i, e] of (endpoints ?? []).entries()) {
        const why = await refusedForCompany(allowPrivate, db, companyId, e.address);
        if (why) throw badRequest({ chain_endpoints: `chain_endpoints[${i}]: ${why}` });
    }
}
