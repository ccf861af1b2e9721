import { CHANNEL_CATALOGUE, type ChannelField } from '../../../common/channel-catalogue';
import { CHANNEL_TYPES, type ChannelType } from '../../../common/channel-types';
import type { NotificationChannel } from '../../../common/entities';

export const NAME_REQUIRED = 'Please enter a name!';
export const TYPE_REQUIRED = 'Please select a type!';
export const CONFIG_REQUIRED = 'Please enter a configuration object!';
export const BOT_TOKEN_REQUIRED = 'Please enter a bot token!';
export const CHAT_ID_REQUIRED = 'Please enter a chat ID!';
/** The API's own words for a super admin's channel without a company (server/repositories/scope.ts). */
export const COMPANY_REQUIRED = 'Please select a company';

/**
 * What the channel dialog edits: the channel fields plus the chosen type's settings, flattened under their
 * configuration_object keys (so a server error keyed by a setting shows under its input; a cleared input is null).
 */
export interface ChannelFormValues {
    name: string | null;
    type: ChannelType | '' | null;
    is_enabled: boolean;
    company_id: number | null;
    [setting: string]: unknown;
}

const allFields = (): ChannelField[] => Object.values(CHANNEL_CATALOGUE).flatMap((t) => [...t.fields]);

export const channelDefaults = (companyId: number | null = null): ChannelFormValues => {
    const values: ChannelFormValues = { name: '', type: '', is_enabled: true, company_id: companyId };
    for (const field of allFields())
        values[field.key] =
            field.kind === 'boolean'
                ? field.default === true
                : field.default !== undefined
                  ? String(field.default)
                  : '';
    return values;
};

export const isChannelType = (value: unknown): value is ChannelType =>
    (CHANNEL_TYPES as readonly unknown[]).includes(value);

/** Trimmed text of a form value; '' for a cleared (null) or absent one. */
const text = (value: unknown) => (value === undefined || value === null ? '' : String(value).trim());

/** The settings stored in a channel's configuration_object; secrets arrive masked ('••••AbCd'). */
export function parseChannelConfig(json: string | null | undefined): Record<string, unknown> {
    try {
        const parsed: unknown = JSON.parse(json ?? '');
        return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
            ? (parsed as Record<string, unknown>)
            : {};
    } catch {
        return {};
    }
}

export function toChannelFormValues(channel: NotificationChannel): ChannelFormValues {
    const config = parseChannelConfig(channel.configuration_object);
    const values: ChannelFormValues = {
        ...channelDefaults(channel.company_id),
        name: channel.name,
        type: channel.type,
        is_enabled: channel.is_enabled,
    };
    for (const field of CHANNEL_CATALOGUE[channel.type]?.fields ?? []) {
        const v = config[field.key];
        if (field.kind === 'boolean') values[field.key] = typeof v === 'boolean' ? v : field.default === true;
        else values[field.key] = typeof v === 'object' && v !== null ? JSON.stringify(v) : text(v);
    }
    return values;
}

/**
 * The configuration_object JSON text for the chosen type (null when none is chosen): required settings always,
 * optional ones when filled in; a number setting as a number when it reads as one (the API names a bad one).
 */
export function toConfigurationObject(values: ChannelFormValues): string | null {
    if (!isChannelType(values.type)) return null;
    const config: Record<string, unknown> = {};
    for (const field of CHANNEL_CATALOGUE[values.type].fields) {
        if (field.kind === 'boolean') {
            // A switch at its default is left out: the stored object then reads as before the switch existed.
            const on = values[field.key] === true;
            if (on !== (field.default === true)) config[field.key] = on;
            continue;
        }
        const v = text(values[field.key]);
        if (!v && !field.required) continue;
        config[field.key] = field.kind === 'number' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
    }
    return JSON.stringify(config);
}

/**
 * Form-level validation (docs/spec.md §5): every message at once, keyed by the field that shows it. `companyRequired` for a
 * super admin without a company of their own, for whom the API has no default company.
 */
export function validateChannel(values: ChannelFormValues, companyRequired = false): Record<string, string> {
    const errors: Record<string, string> = {};
    if (companyRequired && !values.company_id) errors.company_id = COMPANY_REQUIRED;
    if (!text(values.name)) errors.name = NAME_REQUIRED;
    if (!isChannelType(values.type)) errors.type = TYPE_REQUIRED;
    if (toConfigurationObject(values) === null) errors.configuration_object = CONFIG_REQUIRED;
    if (isChannelType(values.type)) {
        for (const field of CHANNEL_CATALOGUE[values.type].fields) {
            if (field.required && !text(values[field.key]))
                errors[field.key] = field.requiredMessage ?? `Please enter ${field.label}!`;
        }
    }
    return errors;
}

/** The body of POST/PUT /notification-channels and of the test call; company_id only when one is chosen. */
export function toChannelBody(values: ChannelFormValues) {
    return {
        name: text(values.name),
        type: values.type as ChannelType,
        configuration_object: toConfigurationObject(values) ?? '',
        is_enabled: values.is_enabled ?? true,
        ...(values.company_id ? { company_id: values.company_id } : {}),
    };
}
