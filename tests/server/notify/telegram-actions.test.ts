import { eq } from 'drizzle-orm';
import { auditEntries } from '../../../server/db/schema';
import { CHANNELS } from '../../../server/notify/channels';
import type { TelegramMessage } from '../../../server/notify/channels/telegram';
import { notifyContext } from '../../../server/notify/context';
import { toRecord } from '../../../server/notify/record';
import type { TelegramActions, TelegramActor } from '../../../server/notify/telegram/actions';
import { actionKey, signButton } from '../../../server/notify/telegram/callback-data';
import { TelegramPollers, WEBHOOK_SET } from '../../../server/notify/telegram/poller';
import { type FakeTelegram, type SentMessage, startFakeTelegram } from '../../support/fake-telegram';
import { createWorld, type World } from '../config-fixtures';
import { waitFor } from '../seed';

/**
 * Telegram actions: alert messages carry Acknowledge and Silence 1 h buttons; presses come back through
 * getUpdates, are checked (chat, user, signature, age), answered, handed to the injected TelegramActions, and the
 * keyboard is edited away once done. The offset survives a restart; a webhook set on the bot is told once.
 */
let telegram: FakeTelegram;
let w: World;
const pollers: TelegramPollers[] = [];

const TOKEN = '123456:ACTIONS-token';
const CHAT = '-100777';
const ALLOWED = 111;

beforeAll(async () => {
    telegram = await startFakeTelegram();
    w = await createWorld({ telegramApiUrl: telegram.url });
});
afterAll(async () => {
    for (const p of pollers) await p.stop();
    await w?.t.close();
    await telegram?.close();
});

/** Records what was asked of it and answers as a working implementation would. */
function fakeActions() {
    const calls: { what: string; target: string | number; by: TelegramActor; minutes?: number }[] = [];
    const actions: TelegramActions = {
        acknowledge: async (incidentId, by) => {
            calls.push({ what: 'ack', target: incidentId, by });
            return { done: true, text: `Acknowledged by ${by.name}` };
        },
        silence: async (monitorId, minutes, by) => {
            calls.push({ what: 'silence', target: monitorId, by, minutes });
            return { done: true, text: `Silenced for ${minutes} min by ${by.name}` };
        },
        acknowledgeServer: async (serverId, incidentId, by) => {
            calls.push({ what: 'ack-server', target: `${serverId} ${incidentId}`, by });
            return { done: true, text: `Acknowledged server by ${by.name}` };
        },
        silenceServer: async (serverId, _incidentId, minutes, by) => {
            calls.push({ what: 'silence-server', target: serverId, by, minutes });
            return { done: true, text: `Silenced server for ${minutes} min by ${by.name}` };
        },
    };
    return { actions, calls };
}

const startPollers = (actions?: TelegramActions) => {
    const p = new TelegramPollers(w.t.app.ctx, w.t.app.log, { actions, pollTimeoutSeconds: 1, refreshMs: 3_600_000 });
    pollers.push(p);
    p.start();
    return p;
};

const channel = async (name: string, config: object) => {
    const res = await w.call('POST', '/api/notification-channels', w.admin.access, {
        name,
        type: 'telegram',
        configuration_object: config,
        is_enabled: true,
    });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: number; configuration_object: string };
};

const INCIDENT = '5b1c0f6e-9a2d-4c3b-8e7f-0123456789ab';
const alert = toRecord(
    {
        id: 42,
        name: 'Block production',
        type: 'blockCheck',
        configuration: { id: 1, name: 'Mainnet', chain: 'cosmoshub' },
        server: { id: 2, name: 'validator-1' },
    },
    { kind: 'alert', incidentId: INCIDENT, since: Date.now(), message: 'Node halted' },
    Date.now()
);

/** Sends `alert` through the telegram type as the outbox does, and returns what Telegram received. */
async function sendAlert(config: Record<string, string | boolean>): Promise<SentMessage | undefined> {
    const ctx = notifyContext(w.t.app.ctx, { allowedNetworks: ['127.0.0.0/8'] });
    const message = CHANNELS.telegram.render(alert) as TelegramMessage;
    expect(await CHANNELS.telegram.send(ctx, config, message)).toEqual({ outcome: 'accepted' });
    return telegram.sent.at(-1);
}

const answerFor = (id: string) => waitFor('the answer', () => telegram.answers.find((a) => a.callback_query_id === id));
const press = (data: string, over: Partial<Parameters<FakeTelegram['press']>[0]> = {}) =>
    telegram.press({
        token: TOKEN,
        chatId: Number(CHAT),
        userId: ALLOWED,
        username: 'alice',
        messageId: 7,
        data,
        ...over,
    });

it('buttons on the alert; a press by an allowed user in the chat acts, is answered and loses its keyboard', async () => {
    const saved = await channel('Ops chat', { bot_token: TOKEN, chat_id: CHAT, allowed_user_ids: `${ALLOWED}, 222` });
    // allow_actions is on by default and not stored: the object reads as docs/spec.md §2 shows it, plus the new setting.
    expect(Object.keys(JSON.parse(saved.configuration_object)).sort()).toEqual([
        'allowed_user_ids',
        'bot_token',
        'chat_id',
    ]);
    const sent = await sendAlert({ bot_token: TOKEN, chat_id: CHAT, allowed_user_ids: `${ALLOWED}, 222` });
    const buttons = sent?.reply_markup?.inline_keyboard[0] ?? [];
    expect(buttons.map((b) => b.text)).toEqual(['Acknowledge', 'Silence 1 h']);
    const [ack, silence] = buttons.map((b) => b.callback_data);

    const { actions, calls } = fakeActions();
    startPollers(actions);
    await waitFor('a poll with callback queries only', () => telegram.polls.some((p) => p.token === TOKEN));

    const acked = press(ack ?? '');
    expect((await answerFor(acked)).text).toBe('Acknowledged by @alice');
    expect(calls).toEqual([
        { what: 'ack', target: INCIDENT, by: { telegramUserId: ALLOWED, name: '@alice', channelId: saved.id } },
    ]);
    await waitFor('the keyboard edited away', () => telegram.edits.length >= 1);
    expect(telegram.edits[0]).toEqual({ chat_id: Number(CHAT), message_id: 7, reply_markup: { inline_keyboard: [] } });

    const silenced = press(silence ?? '', { messageId: 8 });
    expect((await answerFor(silenced)).text).toBe('Silenced for 60 min by @alice');
    expect(calls[1]).toMatchObject({ what: 'silence', target: 42, minutes: 60 });

    // Under a SERVER DOWN the same two buttons act on the server and the outage's first incident.
    const key = actionKey(w.t.app.ctx.config.appSecret);
    const serverButton = (action: 'ack-server' | 'silence-server') =>
        signButton(key, CHAT, { action, incidentId: INCIDENT, targetId: 2, issuedAt: Date.now() }) ?? '';
    expect((await answerFor(press(serverButton('ack-server'), { messageId: 9 }))).text).toBe(
        'Acknowledged server by @alice'
    );
    expect((await answerFor(press(serverButton('silence-server'), { messageId: 10 }))).text).toBe(
        'Silenced server for 60 min by @alice'
    );
    expect(calls.slice(2)).toMatchObject([
        { what: 'ack-server', target: `2 ${INCIDENT}` },
        { what: 'silence-server', target: 2, minutes: 60 },
    ]);
    calls.length = 2;

    // Refused, each saying why, and nothing changes.
    const refusals: [string, string][] = [
        [
            press(ack ?? '', { chatId: -100999 }),
            'This chat is not the chat of a channel of this console; nothing was changed.',
        ],
        [press(ack ?? '', { userId: 333 }), 'You are not allowed to act on these alerts; nothing was changed.'],
        [
            press(`${(ack ?? '').slice(0, -1)}${(ack ?? '').endsWith('A') ? 'B' : 'A'}`),
            'This button was not made by this console for this chat; nothing was changed.',
        ],
        [
            press(
                signButton(actionKey(w.t.app.ctx.config.appSecret), CHAT, {
                    action: 'ack',
                    incidentId: INCIDENT,
                    targetId: 42,
                    issuedAt: Date.now() - 8 * 24 * 3600_000,
                }) ?? ''
            ),
            'This button has expired; nothing was changed. Use the console.',
        ],
    ];
    for (const [id, why] of refusals) expect((await answerFor(id)).text).toBe(why);
    expect(calls).toHaveLength(2);
    expect(telegram.edits).toHaveLength(4);

    // Restarted: the stored offset means no press is applied twice.
    for (const p of pollers.splice(0)) await p.stop();
    const before = telegram.polls.length;
    startPollers(actions);
    await waitFor('a poll after the restart', () => telegram.polls.length > before);
    expect(telegram.polls[before]?.offset).toBeGreaterThan(telegram.polls[0]?.offset ?? 0);
    await new Promise((r) => setTimeout(r, 300));
    expect(calls).toHaveLength(2);
});

it('by default every press is answered "not available yet" and the keyboard stays', async () => {
    for (const p of pollers.splice(0)) await p.stop();
    startPollers();
    const sent = await sendAlert({ bot_token: TOKEN, chat_id: CHAT });
    const edits = telegram.edits.length;
    const id = press(sent?.reply_markup?.inline_keyboard[0]?.[0]?.callback_data ?? '');
    expect((await answerFor(id)).text).toBe('Acknowledging from Telegram is not available yet.');
    await new Promise((r) => setTimeout(r, 300));
    expect(telegram.edits).toHaveLength(edits);
});

it('allow_actions off: no buttons, and its bot is not polled', async () => {
    for (const p of pollers.splice(0)) await p.stop();
    const quiet = '654321:QUIET-token';
    const saved = await channel('Quiet chat', { bot_token: quiet, chat_id: '-100888', allow_actions: false });
    expect(JSON.parse(saved.configuration_object).allow_actions).toBe(false);
    const sent = await sendAlert({ bot_token: quiet, chat_id: '-100888', allow_actions: false });
    expect(sent?.reply_markup).toBeUndefined();
    const p = startPollers();
    await p.refresh();
    await waitFor('a poll of the other bot', () => telegram.polls.filter((x) => x.token === TOKEN).length > 0);
    expect(telegram.polls.some((x) => x.token === quiet)).toBe(false);
});

it('a bot with a webhook set is reported once, on its channel, with the fix', async () => {
    for (const p of pollers.splice(0)) await p.stop();
    const hooked = '777777:HOOKED-token';
    await channel('Hooked chat', { bot_token: hooked, chat_id: '-100666' });
    telegram.webhookSet.add(hooked);
    const reported = async () =>
        (await w.t.app.ctx.db.select().from(auditEntries).where(eq(auditEntries.companyId, w.acme))).filter((a) =>
            a.message.includes('webhook is set')
        );
    startPollers();
    await waitFor('the report', async () => (await reported()).length > 0);
    for (const p of pollers.splice(0)) await p.stop();
    const polls = telegram.polls.filter((x) => x.token === hooked).length;
    startPollers();
    await waitFor('another refused poll', () => telegram.polls.filter((x) => x.token === hooked).length > polls);
    await new Promise((r) => setTimeout(r, 300));
    expect((await reported()).map((a) => a.message)).toEqual([`Notification channel "Hooked chat": ${WEBHOOK_SET}`]);
});

it('bad action settings answer 400 naming the field', async () => {
    const bad = async (config: object) =>
        w.call('POST', '/api/notification-channels', w.admin.access, {
            name: 'bad',
            type: 'telegram',
            configuration_object: { bot_token: TOKEN, chat_id: CHAT, ...config },
            is_enabled: true,
        });
    const users = await bad({ allowed_user_ids: '111, @bob' });
    expect(users.statusCode).toBe(400);
    expect(users.json().errors.allowed_user_ids).toBe(
        'Allowed user IDs must be Telegram user ids (numbers) separated by commas'
    );
    const allow = await bad({ allow_actions: 'maybe' });
    expect(allow.statusCode).toBe(400);
    expect(allow.json().errors.allow_actions).toBe('Allow Actions (allow_actions) must be true or false');
});

it('two pollers of one bot (Telegram ends the older getUpdates with 409) are not taken for a webhook, and a press still acts', async () => {
    for (const p of pollers.splice(0)) await p.stop();
    const shared = '888888:SHARED-token';
    await channel('Shared chat', { bot_token: shared, chat_id: CHAT });
    const sent = await sendAlert({ bot_token: shared, chat_id: CHAT });
    const { actions, calls } = fakeActions();
    // Two consoles on one bot: each new getUpdates ends the other's.
    startPollers(actions);
    startPollers(actions);
    await waitFor('a conflict', () => telegram.conflicts.some((c) => c.token === shared));
    const id = press(sent?.reply_markup?.inline_keyboard[0]?.[0]?.callback_data ?? '', { token: shared });
    expect((await answerFor(id)).text).toBe('Acknowledged by @alice');
    expect(calls[0]).toMatchObject({ what: 'ack', target: INCIDENT });
    const audit = await w.t.app.ctx.db.select().from(auditEntries).where(eq(auditEntries.companyId, w.acme));
    expect(audit.filter((a) => a.message.startsWith('Notification channel "Shared chat": '))).toEqual([]);
});
