import type { ChannelType } from './channel-types';

/**
 * The channel-type catalogue: for each type the settings stored in `configuration_object`, as data. The API
 * validates against it (server/notify/channels/settings.ts), the UI channel dialog builds its inputs from it, and
 * the `secret` ones are encrypted at rest, masked on every read and redacted from logs.
 */
export interface ChannelField {
    key: string;
    /** Names the configuration_object key, as spec §2 does for Telegram: 'Chat ID (chat_id)'. */
    label: string;
    /**
     * text: one trimmed line; number: a whole number; select: one of `choices`; map: an object of string values,
     * entered as JSON text.
     */
    kind: 'text' | 'number' | 'select' | 'map';
    required: boolean;
    secret?: boolean;
    /** The message when a required setting is missing. */
    requiredMessage?: string;
    helperText?: string;
    choices?: readonly string[];
    default?: string | number;
    /** Shown as a multi-line input. */
    multiline?: boolean;
}

export interface ChannelTypeInfo {
    label: string;
    fields: readonly ChannelField[];
}

const MASKED_HELP = 'A saved one is shown masked; leave it as is to keep it';

export const CHANNEL_CATALOGUE: Record<ChannelType, ChannelTypeInfo> = {
    telegram: {
        label: 'Telegram',
        fields: [
            {
                key: 'bot_token',
                label: 'Bot Token (bot_token)',
                kind: 'text',
                required: true,
                secret: true,
                requiredMessage: 'Please enter a bot token!',
                helperText: 'A saved token is shown masked; leave it as is to keep it',
            },
            {
                key: 'chat_id',
                label: 'Chat ID (chat_id)',
                kind: 'text',
                required: true,
                requiredMessage: 'Please enter a chat ID!',
            },
            { key: 'topic_id', label: 'Topic ID (topic_id)', kind: 'text', required: false, helperText: 'Optional' },
        ],
    },
};

/** Every secret setting name of any type: the log redaction list. */
export const SECRET_SETTING_KEYS: readonly string[] = [
    ...new Set(Object.values(CHANNEL_CATALOGUE).flatMap((t) => t.fields.filter((f) => f.secret).map((f) => f.key))),
];

export const secretKeysOf = (type: ChannelType): string[] =>
    CHANNEL_CATALOGUE[type].fields.filter((f) => f.secret).map((f) => f.key);

export { MASKED_HELP };
