import { and, count, eq, sql } from 'drizzle-orm';
import { secretKeysOf } from '../../common/channel-catalogue';
import { CHANNEL_TYPES, type ChannelType } from '../../common/channel-types';
import type { NotificationChannel } from '../../common/entities';
import { decryptSecret, encryptSecret, maskSecret } from '../auth/secrets';
import type { Db } from '../db/client';
import { notificationChannels } from '../db/schema';
import type { NotificationChannelRow } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { boolFilter, choiceFilter, idFilter, type ListPlan, type ListSpec, paged, textFilter } from './list-query';
import { type ChannelConfig, validateChannelSettings } from '../notify/channels';
import { inScope, type Scope } from './scope';

export interface ChannelBody {
    name: string;
    type: ChannelType;
    configuration_object: Record<string, unknown>;
    is_enabled: boolean;
}

const MASK = '••••';

function parseStored(stored: string): Record<string, unknown> {
    try {
        const v: unknown = JSON.parse(stored);
        return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
    } catch {
        return {};
    }
}

const isSetting = (v: unknown): v is ChannelConfig[string] =>
    typeof v === 'string' ||
    typeof v === 'number' ||
    typeof v === 'boolean' ||
    (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string'));

/** The secret in clear, or null when it cannot be read (missing, or encrypted under another key). */
function openSecret(key: Uint8Array, value: unknown): string | null {
    if (typeof value !== 'string' || value === '') return null;
    try {
        return decryptSecret(key, value);
    } catch {
        return null;
    }
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A secret setting in clear: one text, or a map whose every value is secret (a webhook's headers: the names are
 * shown, the values are credentials). Null when any part cannot be read.
 */
function openSetting(key: Uint8Array, value: unknown): ChannelConfig[string] | null {
    if (!isMap(value)) return openSecret(key, value);
    const out: Record<string, string> = {};
    for (const [name, v] of Object.entries(value)) {
        const plain = openSecret(key, v);
        if (plain === null) return null;
        out[name] = plain;
    }
    return out;
}

function maskSetting(key: Uint8Array, value: unknown): unknown {
    if (!isMap(value)) {
        const plain = openSecret(key, value);
        return plain === null ? MASK : maskSecret(plain);
    }
    return Object.fromEntries(
        Object.entries(value).map(([name, v]) => {
            const plain = openSecret(key, v);
            return [name, plain === null ? MASK : maskSecret(plain)];
        })
    );
}

const isMasked = (v: unknown) => typeof v === 'string' && v.startsWith(MASK);

/**
 * A channel's settings in clear, as a sender needs them (the alert outbox reads channels through this); `strict`
 * throws when a stored secret cannot be decrypted instead of leaving it out.
 */
export function channelConfig(key: Uint8Array, row: NotificationChannelRow, strict = false): ChannelConfig {
    const out: ChannelConfig = {};
    const secrets = secretKeysOf(row.type);
    for (const [k, v] of Object.entries(parseStored(row.configurationObject))) {
        const plain = secrets.includes(k) ? openSetting(key, v) : isSetting(v) ? v : null;
        // A sender must say why it cannot send, rather than report the secret as missing.
        if (strict && plain === null && ((typeof v === 'string' && v !== '') || isMap(v))) {
            throw new Error(`the channel's ${k} cannot be decrypted: was APP_SECRET or DATA_DIR/secret.key changed?`);
        }
        if (plain !== null) out[k] = plain;
    }
    return out;
}

/** What every reader gets: secrets masked (security item 22), never in clear, whatever the role. */
export function toChannel(key: Uint8Array, row: NotificationChannelRow): NotificationChannel {
    const secrets = secretKeysOf(row.type);
    const shown: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(parseStored(row.configurationObject))) {
        shown[k] = secrets.includes(k) ? maskSetting(key, v) : v;
    }
    return {
        id: row.id,
        name: row.name,
        type: row.type,
        is_enabled: row.isEnabled,
        configuration_object: JSON.stringify(shown),
        company_id: row.companyId,
        created_at: row.createdAt.toISOString(),
    };
}

/**
 * The settings that say where a channel sends: a stored secret belongs to that destination, and is not handed to
 * another one (an SMTP password to another server, a webhook's signing secret or headers to another URL).
 */
const DESTINATION: Partial<Record<ChannelType, string[]>> = { webhook: ['url'], email: ['host', 'port'] };

const sameSetting = (a: unknown, b: unknown) => String(a ?? '').trim() === String(b ?? '').trim();

/** A submitted map (an object, or its JSON text), or undefined when it is neither. */
function submittedMap(v: unknown): Record<string, unknown> | undefined {
    if (isMap(v)) return v;
    if (typeof v !== 'string') return undefined;
    try {
        const parsed: unknown = JSON.parse(v);
        return isMap(parsed) ? parsed : undefined;
    } catch {
        return undefined;
    }
}

/**
 * Validates a submitted configuration object. A secret left out or sent back masked keeps the stored one
 * (react-admin echoes what it read); on create there is none, so it counts as missing. A masked header value
 * keeps that header's stored value. Once the destination changes, nothing stored is kept: each secret must be
 * sent again.
 */
export function resolveConfig(
    type: ChannelType,
    submitted: Record<string, unknown>,
    stored?: ChannelConfig
): ChannelConfig {
    const input = { ...submitted };
    const destination = DESTINATION[type] ?? [];
    const moved = stored !== undefined && destination.some((k) => !sameSetting(input[k], stored[k]));
    const errors: Record<string, string> = {};
    const again = (field: string) =>
        `${field} must be entered again when the destination (${destination.join(', ')}) changes`;
    for (const field of secretKeysOf(type)) {
        const v = input[field];
        const kept = stored?.[field];
        if (v === undefined || v === null || isMasked(v)) {
            if (kept && moved) errors[field] = again(field);
            else if (kept) input[field] = kept;
            else delete input[field];
            continue;
        }
        const map = submittedMap(v);
        if (!map) continue;
        const keptMap = isMap(kept) ? kept : {};
        const out: Record<string, unknown> = {};
        for (const [name, value] of Object.entries(map)) {
            if (!isMasked(value)) out[name] = value;
            else if (moved && keptMap[name] !== undefined) errors[field] = again(field);
            else if (keptMap[name] !== undefined) out[name] = keptMap[name];
            else errors[field] = `${field}: the value of ${name.slice(0, 100)} is masked, but none is saved; enter it`;
        }
        input[field] = out;
    }
    if (Object.keys(errors).length > 0) throw badRequest(errors);
    const result = validateChannelSettings(type, input);
    if (!result.ok) throw badRequest(result.errors);
    return result.config;
}

function seal(key: Uint8Array, type: ChannelType, config: ChannelConfig): string {
    const out: Record<string, unknown> = {};
    const secrets = secretKeysOf(type);
    for (const [k, v] of Object.entries(config)) {
        if (!secrets.includes(k)) out[k] = v;
        else if (typeof v === 'string') out[k] = encryptSecret(key, v);
        else if (isMap(v)) out[k] = Object.fromEntries(Object.entries(v).map(([n, x]) => [n, encryptSecret(key, x)]));
        else out[k] = v;
    }
    return JSON.stringify(out);
}

/** The list's react-admin parameters: q on the name, type, enabled. */
export const channelList: ListSpec = {
    resource: 'notification-channels',
    id: notificationChannels.id,
    sort: {
        id: notificationChannels.id,
        name: sql`lower(${notificationChannels.name})`,
        type: notificationChannels.type,
        is_enabled: notificationChannels.isEnabled,
        created_at: notificationChannels.createdAt,
    },
    filter: {
        id: idFilter(notificationChannels.id),
        q: textFilter(notificationChannels.name),
        company_id: idFilter(notificationChannels.companyId),
        type: choiceFilter(Object.fromEntries(CHANNEL_TYPES.map((t) => [t, eq(notificationChannels.type, t)]))),
        is_enabled: boolFilter(notificationChannels.isEnabled),
    },
};

/** One page (or, without `range`, all) of the channels a list request names, and how many there are. */
export async function pageChannels(db: Db, plan: ListPlan) {
    const rows = await paged(db.select().from(notificationChannels).where(plan.where).$dynamic(), plan);
    const total = plan.page
        ? ((await db.select({ n: count() }).from(notificationChannels).where(plan.where))[0]?.n ?? 0)
        : rows.length;
    return { rows, total };
}

export async function findChannel(db: Db, scope: Scope, id: number): Promise<NotificationChannelRow> {
    const [row] = await db
        .select()
        .from(notificationChannels)
        .where(and(eq(notificationChannels.id, id), inScope(notificationChannels.companyId, scope)));
    if (!row) throw notFound('Notification channel');
    return row;
}

export async function createChannel(db: Db, key: Uint8Array, companyId: number, body: ChannelBody) {
    const config = resolveConfig(body.type, body.configuration_object);
    const [row] = await db
        .insert(notificationChannels)
        .values({
            companyId,
            name: body.name,
            type: body.type,
            isEnabled: body.is_enabled,
            configurationObject: seal(key, body.type, config),
        })
        .returning();
    if (!row) throw new Error('insert returned nothing');
    return row;
}

/** A channel stays in its company: its links to configurations are within that company. */
export async function updateChannel(
    db: Db,
    key: Uint8Array,
    scope: Scope,
    id: number,
    body: ChannelBody & { company_id?: number | null }
) {
    const before = await findChannel(db, scope, id);
    if (body.company_id !== undefined && body.company_id !== null && body.company_id !== before.companyId) {
        throw badRequest({ company_id: 'A notification channel cannot be moved to another company' });
    }
    const stored = before.type === body.type ? channelConfig(key, before) : undefined;
    const config = resolveConfig(body.type, body.configuration_object, stored);
    const [row] = await db
        .update(notificationChannels)
        .set({
            name: body.name,
            type: body.type,
            isEnabled: body.is_enabled,
            configurationObject: seal(key, body.type, config),
            updatedAt: new Date(),
        })
        .where(eq(notificationChannels.id, id))
        .returning();
    if (!row) throw notFound('Notification channel');
    return row;
}

/** Links to configurations go with it (foreign key cascade). */
export async function deleteChannel(db: Db, scope: Scope, id: number) {
    const row = await findChannel(db, scope, id);
    await db.delete(notificationChannels).where(eq(notificationChannels.id, id));
    return row;
}
