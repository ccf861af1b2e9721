import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { withPolicy } from '../../clients/http';
import {
    answerCallbackQuery,
    type CallbackQuery,
    editMessageReplyMarkup,
    getUpdates,
    TelegramError,
} from '../../clients/telegram';
import type { EgressPolicies } from '../../clients/egress-policies';
import type { HttpClient } from '../../clients/http';
import type { AppConfig } from '../../config';
import type { Db } from '../../db/client';
import type { EventBus } from '../../events';
import { auditEntries, notificationChannels, telegramUpdates } from '../../db/schema';
import { channelConfig } from '../../repositories/notification-channels';
import { setting } from '../channels/settings';
import { ACTIONS_NOT_AVAILABLE, type ActionOutcome, type TelegramActions } from './actions';
import { actionKey, verifyButton } from './callback-data';

/** A channel whose bot is polled for button presses. */
interface Watched {
    channelId: number;
    companyId: number;
    name: string;
    chatId: string;
    /** Telegram user ids allowed to press; null lets anyone in the chat. */
    allowedUserIds: string[] | null;
}

/** What the pollers take of the app (built in server/assembly/background.ts). */
export interface PollerPorts {
    /** The channels it polls for and the update offsets it saves. */
    db: Db;
    /** Channel changes, which make it read the channels again. */
    events: Pick<EventBus, 'subscribe'>;
    http: HttpClient;
    egress: Pick<EgressPolicies, 'forCompany'>;
    keys: { secretsAtRest: Uint8Array };
    config: Pick<AppConfig, 'appSecret' | 'telegramApiUrl'>;
}

export interface PollerOptions {
    actions?: TelegramActions;
    /** How long Telegram holds a getUpdates request open. */
    pollTimeoutSeconds?: number;
    /** How often the list of channels is read again (it is also read on every channel change). */
    refreshMs?: number;
}

const SILENCE_MINUTES = 60;
const MAX_BACKOFF_MS = 60_000;
export const WEBHOOK_SET =
    'Telegram refuses getUpdates for this bot because a webhook is set (409 Conflict), so its Acknowledge and Silence 1 h buttons cannot work. Remove the webhook (Bot API deleteWebhook) or use a bot of its own for this channel.';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** Waits `ms`, or less when `signal` aborts. */
const pause = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            resolve();
        }
        signal.addEventListener('abort', done, { once: true });
    });

/**
 * One long-polling loop per bot token, for the enabled Telegram channels that allow actions. Each button press is
 * checked (the chat is the channel's, the user may act, the data is this console's and recent) and answered; only
 * then is it handed to `TelegramActions`. The offset is saved after each update, so a press is applied once across
 * restarts.
 */
export class TelegramPollers {
    private readonly loops = new Map<string, { channels: Watched[]; abort: AbortController; done: Promise<void> }>();
    private readonly actions: TelegramActions;
    private readonly key: Uint8Array;
    private timer: NodeJS.Timeout | undefined;
    private unsubscribe: (() => void) | undefined;
    private refreshing: Promise<void> | null = null;

    constructor(
        private readonly ctx: PollerPorts,
        private readonly log: FastifyBaseLogger,
        private readonly opts: PollerOptions = {}
    ) {
        this.actions = opts.actions ?? ACTIONS_NOT_AVAILABLE;
        this.key = actionKey(ctx.config.appSecret);
    }

    start(): void {
        void this.refresh();
        this.timer = setInterval(() => void this.refresh(), this.opts.refreshMs ?? 60_000);
        this.unsubscribe = this.ctx.events.subscribe((e) => {
            if (e.name.startsWith('NOTIFICATION_CHANNEL_') && e.name !== 'NOTIFICATION_CHANNEL_TESTED')
                void this.refresh();
        });
    }

    async stop(): Promise<void> {
        clearInterval(this.timer);
        this.unsubscribe?.();
        await this.refreshing;
        const loops = [...this.loops.values()];
        this.loops.clear();
        for (const l of loops) l.abort.abort();
        await Promise.all(loops.map((l) => l.done));
    }

    /** Reads the channels again: starts a loop for a new token, stops the loop of a token no channel uses. */
    refresh(): Promise<void> {
        this.refreshing ??= this.load().finally(() => {
            this.refreshing = null;
        });
        return this.refreshing;
    }

    private async load(): Promise<void> {
        let rows: (typeof notificationChannels.$inferSelect)[];
        try {
            rows = await this.ctx.db
                .select()
                .from(notificationChannels)
                .where(and(eq(notificationChannels.type, 'telegram'), eq(notificationChannels.isEnabled, true)));
        } catch (err) {
            this.log.warn({ err }, 'Reading the Telegram channels to poll failed; trying again later');
            return;
        }
        const byToken = new Map<string, Watched[]>();
        for (const row of rows) {
            let config: ReturnType<typeof channelConfig>;
            try {
                config = channelConfig(this.ctx.keys.secretsAtRest, row);
            } catch {
                continue;
            }
            const token = setting(config, 'bot_token');
            if (!token || config.allow_actions === false) continue;
            const users = setting(config, 'allowed_user_ids');
            const watched: Watched = {
                channelId: row.id,
                companyId: row.companyId,
                name: row.name,
                chatId: setting(config, 'chat_id'),
                allowedUserIds: users ? users.split(',').map((u) => u.trim()) : null,
            };
            byToken.set(token, [...(byToken.get(token) ?? []), watched]);
        }
        for (const [token, loop] of this.loops) {
            if (byToken.has(token)) continue;
            this.loops.delete(token);
            loop.abort.abort();
        }
        for (const [token, channels] of byToken) {
            const loop = this.loops.get(token);
            if (loop) {
                loop.channels = channels;
                continue;
            }
            const abort = new AbortController();
            const entry = { channels, abort, done: Promise.resolve() };
            entry.done = this.run(token, entry, abort.signal);
            this.loops.set(token, entry);
        }
    }

    private async run(token: string, loop: { channels: Watched[] }, signal: AbortSignal): Promise<void> {
        const hash = hashOf(token);
        let backoff = 1000;
        while (!signal.aborted) {
            try {
                const first = loop.channels[0];
                if (!first) return;
                const http = withPolicy(this.ctx.http, await this.ctx.egress.forCompany(first.companyId));
                const offset = await this.offset(hash);
                const askedAt = Date.now();
                const updates = await getUpdates(
                    http,
                    this.ctx.config.telegramApiUrl,
                    token,
                    offset,
                    this.opts.pollTimeoutSeconds ?? 25,
                    signal
                );
                await this.setProblem(hash, null, loop.channels);
                for (const update of updates) {
                    if (signal.aborted) return;
                    if (update.callback_query) await this.press(http, token, loop.channels, update.callback_query);
                    await this.saveOffset(hash, update.update_id + 1);
                }
                backoff = 1000;
                // A server that answers at once with nothing (not long-polling) is not asked in a tight loop.
                if (updates.length === 0 && Date.now() - askedAt < 1000) await pause(1000, signal);
            } catch (err) {
                if (signal.aborted) return;
                if (err instanceof TelegramError && err.status === 409 && /webhook/i.test(err.description)) {
                    await this.setProblem(hash, WEBHOOK_SET, loop.channels).catch(() => {});
                    await pause(MAX_BACKOFF_MS, signal);
                    continue;
                }
                // Telegram's other 409, "terminated by other getUpdates request": another poller asked for this
                // bot's updates (another console, or a process of this cluster taking over). Not a webhook: this
                // loop backs off and asks again, and the offset in the database keeps a press from being applied twice.
                if (err instanceof TelegramError && err.status === 409)
                    this.log.warn(
                        `Telegram channels ${loop.channels.map((c) => `"${c.name}"`).join(', ')}: another program polls the same bot (${err.description}); trying again`
                    );
                else this.log.debug({ err }, 'Polling Telegram for button presses failed; trying again');
                await pause(backoff, signal);
                backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
            }
        }
    }

    /** Checks one press, answers it, and removes the keyboard once the action was done. */
    private async press(
        http: ReturnType<typeof withPolicy>,
        token: string,
        channels: Watched[],
        query: CallbackQuery
    ): Promise<void> {
        const outcome = await this.decide(channels, query).catch((err): ActionOutcome => {
            this.log.error({ err }, 'A Telegram button press failed');
            return { done: false, text: 'Something went wrong; nothing was changed. Try again, or use the console.' };
        });
        const api = this.ctx.config.telegramApiUrl;
        try {
            await answerCallbackQuery(http, api, token, query.id, outcome.text);
            const message = query.message;
            if (outcome.done && message) {
                await editMessageReplyMarkup(http, api, token, {
                    chat_id: message.chat.id,
                    message_id: message.message_id,
                    reply_markup: { inline_keyboard: [] },
                });
            }
        } catch (err) {
            // The action stands; a press older than Telegram keeps it (about 15 min) cannot be answered any more.
            this.log.debug({ err }, 'Answering a Telegram button press failed');
        }
    }

    private async decide(channels: Watched[], query: CallbackQuery): Promise<ActionOutcome> {
        const chat = query.message?.chat;
        const channel = chat
            ? channels.find((c) => c.chatId === String(chat.id) || (chat.username && c.chatId === `@${chat.username}`))
            : undefined;
        if (!chat || !channel)
            return {
                done: false,
                text: 'This chat is not the chat of a channel of this console; nothing was changed.',
            };
        const verified = verifyButton(this.key, channel.chatId, query.data ?? '', Date.now());
        if (!verified.ok) {
            return {
                done: false,
                text:
                    verified.why === 'stale'
                        ? 'This button has expired; nothing was changed. Use the console.'
                        : 'This button was not made by this console for this chat; nothing was changed.',
            };
        }
        const user = String(query.from.id);
        if (channel.allowedUserIds && !channel.allowedUserIds.includes(user))
            return { done: false, text: 'You are not allowed to act on these alerts; nothing was changed.' };
        const by = {
            telegramUserId: query.from.id,
            name: query.from.username ? `@${query.from.username}` : (query.from.first_name ?? user),
            channelId: channel.channelId,
        };
        const { data } = verified;
        switch (data.action) {
            case 'ack':
                return this.actions.acknowledge(data.incidentId, by);
            case 'silence':
                return this.actions.silence(data.targetId, SILENCE_MINUTES, by);
            case 'ack-server':
                return this.actions.acknowledgeServer(data.targetId, data.incidentId, by);
            case 'silence-server':
                return this.actions.silenceServer(data.targetId, data.incidentId, SILENCE_MINUTES, by);
        }
    }

    private async offset(hash: string): Promise<number> {
        const [row] = await this.ctx.db
            .select({ next: telegramUpdates.nextOffset })
            .from(telegramUpdates)
            .where(eq(telegramUpdates.tokenHash, hash));
        return row?.next ?? 0;
    }

    private async saveOffset(hash: string, next: number): Promise<void> {
        await this.ctx.db
            .insert(telegramUpdates)
            .values({ tokenHash: hash, nextOffset: next })
            .onConflictDoUpdate({
                target: telegramUpdates.tokenHash,
                set: { nextOffset: next, updatedAt: new Date() },
            });
    }

    /** Records what stops polling; a new problem is told once, on each channel of the bot, in the audit trail. */
    private async setProblem(hash: string, problem: string | null, channels: Watched[]): Promise<void> {
        const [row] = await this.ctx.db
            .select({ problem: telegramUpdates.problem })
            .from(telegramUpdates)
            .where(eq(telegramUpdates.tokenHash, hash));
        if ((row?.problem ?? null) === problem) return;
        await this.ctx.db.transaction(async (tx) => {
            await tx
                .insert(telegramUpdates)
                .values({ tokenHash: hash, problem })
                .onConflictDoUpdate({ target: telegramUpdates.tokenHash, set: { problem, updatedAt: new Date() } });
            if (problem) {
                await tx.insert(auditEntries).values(
                    channels.map((c) => ({
                        companyId: c.companyId,
                        message: `Notification channel "${c.name}": ${problem}`,
                    }))
                );
            }
        });
        if (problem) this.log.warn(`Telegram channels ${channels.map((c) => `"${c.name}"`).join(', ')}: ${problem}`);
    }
}
