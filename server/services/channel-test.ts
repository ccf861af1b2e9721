import type { ChannelType } from '../../common/channel-types';
import type { AppContext } from '../context';
import { CHANNELS } from '../notify/channels';
import { notifyContext } from '../notify/context';
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
 * Sends a real test message. A refusal answers 400 with the destination's own error text (Telegram's
 * "Unauthorized", "Too Many Requests: retry after 5") and `retry_after` when given; an unreachable one answers 502.
 * Invalid settings throw the usual 400 with field errors.
 */
export async function testChannel(
    ctx: AppContext,
    scope: Scope,
    body: ChannelTest,
    forCompany: number | null = scope
): Promise<TestOutcome> {
    const existing = body.id ? await findChannel(ctx.db, scope, body.id) : null;
    const stored =
        existing && existing.type === body.type ? channelConfig(ctx.keys.secretsAtRest, existing) : undefined;
    const config = resolveConfig(body.type, body.configuration_object, stored);
    const type = CHANNELS[body.type];
    const message = type.render({ kind: 'test', channelName: body.name, at: Date.now() });
    if (message === null) throw new Error(`${body.type} renders no test message`);
    // Sent on behalf of the channel's company (or the one the form names): its allowed networks apply.
    const companyId = existing?.companyId ?? forCompany;
    const policy = companyId === null ? { allowedNetworks: [] } : await ctx.egress.forCompany(companyId);
    const result = await type.send(notifyContext(ctx, policy), config, message);
    switch (result.outcome) {
        case 'accepted':
            return { status: 200, body: { message: 'Notification channel tested successfully!' } };
        case 'retry': {
            const retry = result.afterSeconds;
            const text = /retry after/i.test(result.error) ? result.error : `${result.error} (retry after ${retry} s)`;
            return { status: 400, body: { message: text, retry_after: retry } };
        }
        case 'transient':
            return { status: result.unreachable ? 502 : 400, body: { message: result.error } };
        default:
            return { status: 400, body: { message: result.error } };
    }
}
