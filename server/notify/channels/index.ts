import type { ChannelType } from '../../../common/channel-types';
import type { HttpClient } from '../../clients/http';
import { telegram } from './telegram';

/** A channel's settings after validation: plain strings, secrets in clear (they are encrypted only at rest). */
export type ChannelConfig = Record<string, string>;

export type ValidateResult = { ok: true; config: ChannelConfig } | { ok: false; errors: Record<string, string> };

/** What a sender needs from the app. */
export interface NotifyContext {
    http: HttpClient;
    telegramApiUrl: string;
}

/** One channel type: how to check its settings, which of them are secret, and how to deliver a text. */
export interface Notifier {
    /** Settings encrypted at rest and masked on read. */
    secretFields: readonly string[];
    /** Errors are keyed by setting name, as the form shows them. */
    validate(config: unknown): ValidateResult;
    /** Delivers `text` (HTML, already escaped); throws on failure (TelegramError for telegram). */
    send(ctx: NotifyContext, config: ChannelConfig, text: string): Promise<void>;
}

export const CHANNELS: Record<ChannelType, Notifier> = {
    telegram,
};
