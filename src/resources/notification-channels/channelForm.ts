import { CHANNEL_TYPES, type ChannelType, type TelegramChannelConfig } from '../../../common/channel-types';
import type { NotificationChannel } from '../../../common/entities';

export const NAME_REQUIRED = 'Please enter a name!';
export const TYPE_REQUIRED = 'Please select a type!';
export const CONFIG_REQUIRED = 'Please enter a configuration object!';
export const BOT_TOKEN_REQUIRED = 'Please enter a bot token!';
export const CHAT_ID_REQUIRED = 'Please enter a chat ID!';

/** What the channel dialog edits: the channel fields plus the telegram settings, flattened (a cleared input is null). */
export interface ChannelFormValues {
    name: string | null;
    type: ChannelType | '' | null;
    is_enabled: boolean;
    company_id: number | null;
    bot_token: string | null;
    chat_id: string | null;
    topic_id: string | null;
}

export const channelDefaults = (companyId: number | null = null): ChannelFormValues => ({
    name: '',
    type: '',
    is_enabled: true,
    company_id: companyId,
    bot_token: '',
    chat_id: '',
    topic_id: '',
});

export const isChannelType = (value: unknown): value is ChannelType =>
    (CHANNEL_TYPES as readonly unknown[]).includes(value);

/** Trimmed text of a form value; '' for a cleared (null) or absent one. */
const text = (value: unknown) => (value === undefined || value === null ? '' : String(value).trim());

/** The settings stored in a channel's configuration_object; the bot token arrives masked ('••••AbCd'). */
export function parseChannelConfig(json: string | null | undefined): Partial<TelegramChannelConfig> {
    try {
        const parsed: unknown = JSON.parse(json ?? '');
        return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
            ? (parsed as Partial<TelegramChannelConfig>)
            : {};
    } catch {
        return {};
    }
}

export function toChannelFormValues(channel: NotificationChannel): ChannelFormValues {
    const config = parseChannelConfig(channel.configuration_object);
    return {
        name: channel.name,
        type: channel.type,
        is_enabled: channel.is_enabled,
        company_id: channel.company_id,
        bot_token: text(config.bot_token),
        chat_id: text(config.chat_id),
        topic_id: text(config.topic_id),
    };
}

/** The configuration_object JSON text for the chosen type; null when no type is chosen. */
export function toConfigurationObject(values: ChannelFormValues): string | null {
    if (values.type !== 'telegram') return null;
    const config: TelegramChannelConfig = { bot_token: text(values.bot_token), chat_id: text(values.chat_id) };
    if (text(values.topic_id)) config.topic_id = text(values.topic_id);
    return JSON.stringify(config);
}

/** Form-level validation (spec §5): every message at once, keyed by the field that shows it. */
export function validateChannel(values: ChannelFormValues): Record<string, string> {
    const errors: Record<string, string> = {};
    if (!text(values.name)) errors.name = NAME_REQUIRED;
    if (!isChannelType(values.type)) errors.type = TYPE_REQUIRED;
    if (toConfigurationObject(values) === null) errors.configuration_object = CONFIG_REQUIRED;
    if (values.type === 'telegram') {
        if (!text(values.bot_token)) errors.bot_token = BOT_TOKEN_REQUIRED;
        if (!text(values.chat_id)) errors.chat_id = CHAT_ID_REQUIRED;
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
