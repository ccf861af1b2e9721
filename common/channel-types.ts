/** Notification channel types; the wire name is what the API and the database store. */
export const CHANNEL_TYPES = ['telegram', 'discord', 'slack', 'pagerduty', 'webhook', 'email'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export interface TelegramChannelConfig {
    bot_token: string;
    chat_id: string;
    topic_id?: string;
}
