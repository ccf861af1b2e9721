import type { ChannelType } from '../../../common/channel-types';
import type { EgressPolicy } from '../../clients/address-guard';
import type { HttpClient } from '../../clients/http';
import type { DigestLine, OutgoingRecord } from '../record';

/** A channel's settings after validation, secrets in clear (they are encrypted only at rest). */
export type ChannelSetting = string | number | boolean | Record<string, string>;
export type ChannelConfig = Record<string, ChannelSetting>;

export type ValidateResult = { ok: true; config: ChannelConfig } | { ok: false; errors: Record<string, string> };

/**
 * What a sender needs from the app: the one egress client, already bound to the channel's company's egress policy,
 * and the API base URLs tests point at fakes.
 */
export interface NotifyContext {
    http: HttpClient;
    apiUrls: { telegram: string; pagerduty: string };
    /** Loopback/private hosts are allowed everywhere (ALLOW_PRIVATE_TARGETS). */
    allowPrivate: boolean;
    /** The company's allowed private networks, for senders that connect without the HTTP client (SMTP). */
    policy: EgressPolicy;
    /** Signs the data of Telegram's Acknowledge and Silence buttons (server/notify/telegram/callback-data.ts). */
    actionKey?: Uint8Array;
}

/**
 * How a destination answered a message: accepted; asked to wait (rate limit); failed in a way a later try may fix
 * (`unreachable` when it did not answer at all); or refused for a reason retrying cannot fix (bad credentials,
 * unknown destination). `error` is the destination's own text, free of secrets.
 */
export type SendResult =
    | { outcome: 'accepted' }
    | { outcome: 'retry'; afterSeconds: number; error: string }
    | { outcome: 'transient'; error: string; unreachable?: boolean }
    | { outcome: 'permanent'; error: string };

export interface ChannelLimits {
    /** Messages one destination is sent per minute, sliding. */
    perMinute: number;
    /** The longest text (in characters) one message may hold; digests are cut to it. */
    maxLength: number;
}

/**
 * One channel type (a file in this folder, listed once in index.ts). `M` is the type's own message: an HTML text,
 * an embed, an event, a mail. Settings are checked first against the catalogue (common/channel-catalogue.ts),
 * then by `check` for what the catalogue cannot say (URL shapes).
 */
export interface ChannelDefinition<M = unknown> {
    type: ChannelType;
    limits: ChannelLimits;
    /** False for types whose receivers want every event on its own (PagerDuty, webhooks): no digests. */
    digests?: false;
    /** Errors keyed by setting name, after the catalogue's checks passed. */
    check?(config: ChannelConfig): Record<string, string>;
    /** Which destination a channel sends to: channels sharing one are probed and paced together when down. */
    destination(ctx: NotifyContext, config: ChannelConfig): string;
    /** A message for `record`, or null when this type does not send that kind (PagerDuty reminders). */
    render(record: OutgoingRecord): M | null;
    /** A message for a row stored before payloads existed: its Telegram HTML text. */
    renderText(html: string): M;
    /** One message standing for the first `count` (at least one) of `lines`. */
    renderDigest(lines: readonly DigestLine[]): { message: M; count: number };
    send(ctx: NotifyContext, config: ChannelConfig, message: M): Promise<SendResult>;
    /** Whether the destination answers at all (any answer counts): cheap, used while it is unreachable. */
    probe(ctx: NotifyContext, config: ChannelConfig): Promise<boolean>;
}
