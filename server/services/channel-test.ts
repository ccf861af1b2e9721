import type { ChannelType } from '../../common/channel-types';
import { withPolicy } from '../clients/http';
import { TelegramError } from '../clients/telegram';
import type { AppContext } from '../context';
import { escapeHtml } from '../notify/format';
import { CHANNELS } from '../notify/channels';
import { channelConfig, findChannel, resolveConfig } from '../repositories/notification-channels';
import type { Scope } from '../repositories/scope';

export interface ChannelTest {
    /** An existing channel whose stored secret fills in a masked or omitted one; only within the caller's scope. */
    id?: number | null;
    name: string;
    type: ChannelType;
    configuration_object: Record<string, unknown>;
}

export type TestOutcome =
    | { status: 200; body: { message: string } }
    | { status: 400 | 502; body: { message: string; retry_after?: number } };

/**
 * Sends a real test message. A refusal answers 400 with the channel's own description (Telegram's
 * "Unauthorized", "Too Many Requests: retry after 5") and `retry_after` when given; an unreachable API answers 502.
 * Invalid settings throw the usual 400 with field errors.
 */
export async function testChannel(ctx: AppContext, scope: Scope, body: ChannelTest): Promise<TestOutcome> {
    const existing = body.id ? await findChannel(ctx.db, scope, body.id) : null;
    const stored =
        existing && existing.type === body.type ? channelConfig(ctx.keys.secretsAtRest, existing) : undefined;
    const config = resolveConfig(body.type, body.configuration_object, stored);
    // Sent on behalf of the channel's company (or the caller's): its allowed networks apply.
    const companyId = existing?.companyId ?? scope;
    const policy = companyId === null ? { allowedNetworks: [] } : await ctx.egress.forCompany(companyId);
    const text = `<b>Node Monitor</b>: test message for notification channel "${escapeHtml(body.name)}". Alerts will arrive here.`;
    try {
        await CHANNELS[body.type].send(
            { http: withPolicy(ctx.http, policy), telegramApiUrl: ctx.config.telegramApiUrl },
            config,
            text
        );
        return { status: 200, body: { message: 'Notification channel tested successfully!' } };
    } catch (err) {
        if (!(err instanceof TelegramError)) throw err;
        if (err.status === 0) return { status: 502, body: { message: err.description } };
        const retry = err.retryAfter;
        const message =
            retry !== undefined && !/retry after/i.test(err.description)
                ? `${err.description} (retry after ${retry} s)`
                : err.description;
        return { status: 400, body: { message, ...(retry !== undefined ? { retry_after: retry } : {}) } };
    }
}
