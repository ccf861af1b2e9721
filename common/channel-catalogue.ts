import type { ChannelType } from './channel-types';

/**
 * The channel-type catalogue: for each type the settings stored in `configuration_object`, as data. The API
 * validates against it (server/notify/channels/settings.ts), the UI channel dialog builds its inputs from it, and
 * the `secret` ones are encrypted at rest, masked on every read and redacted from logs.
 */
export interface ChannelField {
    key: string;
    /** What the form calls the setting, in plain words ('Chat ID'); API errors add the key: 'Chat ID (chat_id)'. */
    label: string;
    /**
     * text: one trimmed line; number: a whole number; select: one of `choices`; map: an object of string values,
     * entered as JSON text; boolean: a switch, stored only when it differs from its default (so that objects saved
     * before it, and the spec's Telegram object, read the same).
     */
    kind: 'text' | 'number' | 'select' | 'map' | 'boolean';
    required: boolean;
    secret?: boolean;
    /** The message when a required setting is missing. */
    requiredMessage?: string;
    helperText?: string;
    choices?: readonly string[];
    default?: string | number | boolean;
    /** Shown as a multi-line input. */
    multiline?: boolean;
}

export interface ChannelTypeInfo {
    label: string;
    fields: readonly ChannelField[];
}

export const MASKED_HELP = 'A saved one is shown masked; leave it as is to keep it';

export const CHANNEL_CATALOGUE: Record<ChannelType, ChannelTypeInfo> = {
    telegram: {
        label: 'Telegram',
        fields: [
            {
                key: 'bot_token',
                label: 'Bot Token',
                kind: 'text',
                required: true,
                secret: true,
                requiredMessage: 'Please enter a bot token!',
                helperText: 'A saved token is shown masked; leave it as is to keep it',
            },
            {
                key: 'chat_id',
                label: 'Chat ID',
                kind: 'text',
                required: true,
                requiredMessage: 'Please enter a chat ID!',
                helperText:
                    "Send your bot a message (in a group: /start@your_bot), then open https://api.telegram.org/bot<token>/getUpdates: the chat ID is message.chat.id (a group's is negative)",
            },
            { key: 'topic_id', label: 'Topic ID', kind: 'text', required: false, helperText: 'Optional' },
            {
                key: 'allow_actions',
                label: 'Allow Actions',
                kind: 'boolean',
                required: false,
                default: true,
                helperText: 'Alert messages carry Acknowledge and Silence 1 h buttons',
            },
            {
                key: 'allowed_user_ids',
                label: 'Allowed User IDs',
                kind: 'text',
                required: false,
                helperText:
                    'Optional: Telegram user ids, separated by commas, who may use the buttons (else anyone in the chat)',
            },
        ],
    },
    discord: {
        label: 'Discord',
        fields: [
            {
                key: 'webhook_url',
                label: 'Webhook URL',
                kind: 'text',
                required: true,
                secret: true,
                requiredMessage: 'Please enter a webhook URL!',
                helperText: `https://discord.com/api/webhooks/{id}/{token}. ${MASKED_HELP}`,
            },
        ],
    },
    slack: {
        label: 'Slack',
        fields: [
            {
                key: 'webhook_url',
                label: 'Webhook URL',
                kind: 'text',
                required: true,
                secret: true,
                requiredMessage: 'Please enter a webhook URL!',
                helperText: `An incoming webhook, https://hooks.slack.com/services/…. ${MASKED_HELP}`,
            },
        ],
    },
    pagerduty: {
        label: 'PagerDuty',
        fields: [
            {
                key: 'routing_key',
                label: 'Routing Key',
                kind: 'text',
                required: true,
                secret: true,
                requiredMessage: 'Please enter a routing key!',
                helperText: `The Events API v2 integration key of a service. ${MASKED_HELP}`,
            },
            {
                key: 'severity_map',
                label: 'Severity Map',
                kind: 'map',
                required: false,
                helperText: 'Optional JSON, e.g. {"critical": "error", "warning": "warning"}',
            },
        ],
    },
    webhook: {
        label: 'Webhook',
        fields: [
            {
                key: 'url',
                label: 'URL',
                kind: 'text',
                required: true,
                requiredMessage: 'Please enter a URL!',
                helperText: 'Receives a JSON POST per notification',
            },
            {
                key: 'secret',
                label: 'Secret',
                kind: 'text',
                required: true,
                secret: true,
                requiredMessage: 'Please enter a secret!',
                helperText: `Signs each body (X-Node-Monitor-Signature). ${MASKED_HELP}`,
            },
            {
                key: 'headers',
                label: 'Headers',
                kind: 'map',
                required: false,
                secret: true,
                helperText:
                    'Optional JSON of extra headers, e.g. {"Authorization": "Bearer …"}. Saved values are shown masked; leave them as they are to keep them',
            },
        ],
    },
    email: {
        label: 'Email',
        fields: [
            {
                key: 'host',
                label: 'SMTP Host',
                kind: 'text',
                required: true,
                requiredMessage: 'Please enter a host!',
            },
            {
                key: 'port',
                label: 'Port',
                kind: 'number',
                required: true,
                default: 587,
                requiredMessage: 'Please enter a port!',
            },
            {
                key: 'security',
                label: 'Security',
                kind: 'select',
                required: true,
                choices: ['tls', 'starttls', 'none'],
                default: 'starttls',
                helperText: 'tls: port 465; starttls: port 587; none: no encryption',
            },
            { key: 'username', label: 'Username', kind: 'text', required: false, helperText: 'Optional' },
            {
                key: 'password',
                label: 'Password',
                kind: 'text',
                required: false,
                secret: true,
                helperText: `Optional. ${MASKED_HELP}`,
            },
            {
                key: 'from',
                label: 'From',
                kind: 'text',
                required: true,
                requiredMessage: 'Please enter a sender address!',
            },
            {
                key: 'to',
                label: 'To',
                kind: 'text',
                required: true,
                requiredMessage: 'Please enter at least one recipient!',
                helperText: 'One or more addresses, separated by commas',
            },
        ],
    },
};

/** Every secret setting name of any type: the log redaction list. */
export const SECRET_SETTING_KEYS: readonly string[] = [
    ...new Set(Object.values(CHANNEL_CATALOGUE).flatMap((t) => t.fields.filter((f) => f.secret).map((f) => f.key))),
];

export const secretKeysOf = (type: ChannelType): string[] =>
    CHANNEL_CATALOGUE[type].fields.filter((f) => f.secret).map((f) => f.key);
