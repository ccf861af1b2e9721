import { CHANNEL_CATALOGUE, type ChannelField } from '../../../common/channel-catalogue';
import type { ChannelType } from '../../../common/channel-types';
import type { ChannelConfig, ChannelSetting, ValidateResult } from './types';

const MAX_TEXT = 2048;

const asText = (v: unknown): string | undefined =>
    typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;

function asMap(v: unknown): Record<string, string> | null | undefined {
    let parsed = v;
    if (typeof v === 'string') {
        if (v.trim() === '') return undefined;
        try {
            parsed = JSON.parse(v);
        } catch {
            return null;
        }
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    const out: Record<string, string> = {};
    for (const [k, value] of Object.entries(parsed)) {
        if (typeof value !== 'string' && typeof value !== 'number') return null;
        out[k] = String(value);
    }
    return Object.keys(out).length > 0 ? out : undefined;
}

/** A setting as an API caller knows it: its label and the configuration_object key it sent, 'Chat ID (chat_id)'. */
const named = (field: ChannelField) => `${field.label} (${field.key})`;

/** One setting read as its kind: the value, undefined when absent or empty, or an error sentence. */
function read(field: ChannelField, raw: unknown): { value?: ChannelSetting; error?: string } {
    if (raw === undefined || raw === null) return {};
    switch (field.kind) {
        case 'number': {
            const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
            if (typeof raw === 'string' && raw.trim() === '') return {};
            return Number.isInteger(n) && n >= 0 ? { value: n } : { error: `${named(field)} must be a whole number` };
        }
        case 'select': {
            const t = asText(raw);
            if (!t) return {};
            return field.choices?.includes(t)
                ? { value: t }
                : { error: `${named(field)} must be one of ${field.choices?.join(', ')}` };
        }
        case 'boolean': {
            if (typeof raw === 'boolean') return { value: raw };
            if (raw === 'true' || raw === 'false') return { value: raw === 'true' };
            return { error: `${named(field)} must be true or false` };
        }
        case 'map': {
            const m = asMap(raw);
            if (m === null) return { error: `${named(field)} must be a JSON object of text values` };
            return m ? { value: m } : {};
        }
        default: {
            const t = asText(raw);
            if (t === undefined) return { error: `${named(field)} must be text` };
            if (t.length > MAX_TEXT) return { error: `${named(field)} is too long` };
            return t ? { value: t } : {};
        }
    }
}

/**
 * Checks `raw` against the type's catalogue entry, then against `check` (formats the catalogue cannot state). All
 * errors at once, keyed by the setting that shows them; a setting's own error wins over a later one for it.
 */
export function validateSettings(
    type: ChannelType,
    raw: unknown,
    check?: (config: ChannelConfig) => Record<string, string>
): ValidateResult {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
        return { ok: false, errors: { configuration_object: 'configuration_object must be a JSON object' } };
    }
    const input = raw as Record<string, unknown>;
    const fields = CHANNEL_CATALOGUE[type].fields;
    const errors: Record<string, string> = {};
    for (const key of Object.keys(input)) {
        if (!fields.some((f) => f.key === key)) errors[key] = `Unknown setting for ${type}`;
    }
    const config: ChannelConfig = {};
    for (const field of fields) {
        const { value, error } = read(field, input[field.key]);
        if (error) errors[field.key] = error;
        else if (field.kind === 'boolean') {
            if (value !== undefined && value !== field.default) config[field.key] = value;
        } else if (value !== undefined) config[field.key] = value;
        else if (field.default !== undefined) config[field.key] = field.default;
        else if (field.required) errors[field.key] = field.requiredMessage ?? `Please enter ${named(field)}!`;
    }
    for (const [key, message] of Object.entries(check?.(config) ?? {})) errors[key] ??= message;
    return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, config };
}

/** A setting as text ('' when absent): senders read their validated settings through it. */
export const setting = (config: ChannelConfig, key: string): string => {
    const v = config[key];
    return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
};
