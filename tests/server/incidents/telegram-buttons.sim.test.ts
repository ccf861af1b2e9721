import { eq } from 'drizzle-orm';
import { monitors } from '../../../server/db/schema';
import type { ChainSim } from '../../../tools/chain-sim';
import { startChainSim } from '../../../tools/chain-sim';
import type { FakeTelegram, Press } from '../../support/fake-telegram';
import { startFakeTelegram } from '../../support/fake-telegram';
import type { TestApp } from '../helpers';
import { auth, login, persistentTestDatabase, seedCompany, seedUser, startAppOn } from '../helpers';
import { seedNode, waitFor } from '../seed';

/**
 * The Telegram buttons end to end, in the running app (its own getUpdates poller and the real
 * acknowledgement and silence): node halts → ALERT with Acknowledge and Silence 1 h → a press comes back through
 * getUpdates → the incident is acknowledged by that Telegram user, reminders stop, ACKNOWLEDGED is sent once, the
 * keyboard is edited away, the recovery still comes. Silence 1 h silences the monitor and holds reminders back. A
 * press from a foreign chat or with forged data changes nothing; a restart neither applies a press twice nor loses
 * one made while the console was down. The engine, the simulator and the test share one shifted clock.
 */
let sim: ChainSim;
let telegram: FakeTelegram;
let db: Awaited<ReturnType<typeof persistentTestDatabase>>;
let t: TestApp;
const MIN = 60_000;
const TOKEN = '123456:BUTTONS-token';
const CHAT = '-1001234';

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 200 });
    telegram = await startFakeTelegram();
    db = await persistentTestDatabase();
});
afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
    await sim.close();
    await telegram.close();
    await db.drop();
});

const texts = () => telegram.sent.map((m) => m.text);
const shift = (ms: number) => vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: Date.now() + ms });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A press by the on-call engineer in the channel's chat, unless told otherwise; answers the callback query id. */
const press = (data: string, over: Partial<Press> = {}) =>
    telegram.press({
        token: TOKEN,
        chatId: Number(CHAT),
        userId: 555,
        username: 'oncall_bob',
        messageId: 1,
        data,
        ...over,
    });
const answerFor = (id: string) =>
    waitFor(`the answer to ${id}`, () => telegram.answers.find((a) => a.callback_query_id === id));
const answersTo = (id: string) => telegram.answers.filter((a) => a.callback_query_id === id);
const updateIdOf = (callbackId: string) => Number(callbackId.replace('cq-', ''));
/** The last alert's buttons, by their label. */
function buttonsOfLastAlert() {
    const alert = telegram.sent.filter((m) => m.text.includes('ALERT')).at(-1);
    const row = alert?.reply_markup?.inline_keyboard[0] ?? [];
    expect(row.map((b) => b.text)).toEqual(['Acknowledge', 'Silence 1 h']);
    return Object.fromEntries(row.map((b) => [b.text, b.callback_data])) as Record<string, string>;
}
const forge = (data: string) => `${data.slice(0, -1)}${data.endsWith('A') ? 'B' : 'A'}`;

it('Acknowledge and Silence 1 h pressed in Telegram act once, within the channel, across restarts', {
    timeout: 240_000,
}, async () => {
    const config = { ...db.config, engineEnabled: true, telegramApiUrl: telegram.url };
    t = await startAppOn(config);
    const companyId = await seedCompany(t.app, 'Validators Inc');
    await seedUser(t.app, { username: 'oncall', companyId, isAdmin: true });
    const node = sim.nodes[0];
    if (!node) throw new Error('no node');
    const { monitorId, configurationId } = await seedNode(t.app, {
        companyId,
        services: [{ type: 'rpc', address: node.rpcUrl }],
        monitor: {
            type: 'blockCheck',
            name: 'Block production',
            settings: {
                miss_tolerance: 2,
                miss_tolerance_period_seconds: 3,
                sleep_duration_seconds: 1,
                alert_sleep_duration_minutes: 1,
            },
        },
    });
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
        const { access } = await login(t.app, 'oncall');
        return t.app.inject({ method, url, headers: auth(access), payload });
    };
    // Made as a user makes it: the poller starts on the channel's creation event.
    const channel = await call('POST', '/api/notification-channels', {
        name: 'Ops chat',
        type: 'telegram',
        configuration_object: { bot_token: TOKEN, chat_id: CHAT },
        is_enabled: true,
    });
    expect(channel.statusCode).toBe(201);
    const link = await call('POST', `/api/configurations/${configurationId}/notification-channels`, {
        notification_channel_id: channel.json().id,
    });
    expect(link.statusCode).toBe(201);
    await waitFor('the bot polled', () => telegram.polls.some((p) => p.token === TOKEN));
    const row = async () => (await t.app.ctx.db.select().from(monitors).where(eq(monitors.id, monitorId)))[0];
    await waitFor('a first healthy check', async () => (await row())?.lastCheck && (await row())?.status);

    // 1. The halt: an ALERT with both buttons, and a reminder while nobody has acknowledged it.
    sim.control.halt(0);
    await waitFor('the alert', () => texts().some((x) => x.includes('ALERT')));
    const first = buttonsOfLastAlert();
    const open = (await call('GET', '/api/incidents?filter={"status":"open"}')).json().results;
    expect(open).toHaveLength(1);
    const incidentId = open[0].id as string;
    shift(2 * MIN);
    await waitFor('a reminder', () => texts().some((x) => x.includes('STILL FAILING')));

    // A foreign chat, and data this console did not sign, are refused and change nothing.
    const foreign = press(first.Acknowledge ?? '', { chatId: -100999 });
    const forged = press(forge(first.Acknowledge ?? ''));
    const forgedSilence = press(forge(first['Silence 1 h'] ?? ''));
    expect((await answerFor(foreign)).text).toBe(
        'This chat is not the chat of a channel of this console; nothing was changed.'
    );
    for (const id of [forged, forgedSilence])
        expect((await answerFor(id)).text).toBe(
            'This button was not made by this console for this chat; nothing was changed.'
        );
    expect((await call('GET', `/api/incidents/${incidentId}`)).json()).toMatchObject({
        acknowledged_at: null,
        acknowledged_by: null,
    });
    expect((await call('GET', '/api/silences')).json().results).toEqual([]);
    expect(telegram.edits).toEqual([]);

    // 2. Acknowledge: by that Telegram user, the keyboard goes, one ACKNOWLEDGED.
    const acked = press(first.Acknowledge ?? '', { messageId: 41 });
    expect((await answerFor(acked)).text).toBe('Acknowledged by @oncall_bob. Reminders for this incident stop.');
    await waitFor('the keyboard edited away', () => telegram.edits.length >= 1);
    expect(telegram.edits).toEqual([{ chat_id: Number(CHAT), message_id: 41, reply_markup: { inline_keyboard: [] } }]);
    expect((await call('GET', `/api/incidents/${incidentId}`)).json()).toMatchObject({
        status: 'open',
        acknowledged_by: '@oncall_bob',
        acknowledged_via: 'telegram',
    });
    await waitFor('the acknowledgement message', () => texts().some((x) => x.includes('ACKNOWLEDGED')));
    const ackMessage = telegram.sent.find((m) => m.text.includes('ACKNOWLEDGED'));
    expect(ackMessage?.text).toContain('Acknowledged by @oncall_bob (telegram)');
    expect(ackMessage?.reply_markup).toBeUndefined();

    // A restart: the next poll asks past the press, so it is not applied again; no reminder comes any more.
    const sentBeforeQuiet = texts().length;
    await t.close();
    const pollsBefore = telegram.polls.length;
    t = await startAppOn(config);
    await waitFor('a poll after the restart', () => telegram.polls.length > pollsBefore);
    expect(telegram.polls[pollsBefore]?.offset).toBe(updateIdOf(acked) + 1);
    shift(3 * MIN);
    await pause(6000);
    expect(texts()).toHaveLength(sentBeforeQuiet);
    expect(answersTo(acked)).toHaveLength(1);
    expect(telegram.edits).toHaveLength(1);

    sim.control.resume(0);
    await waitFor('the recovery', () => texts().some((x) => x.includes('RECOVERED')));
    expect(texts().filter((x) => x.includes('ACKNOWLEDGED'))).toHaveLength(1);
    expect((await call('GET', `/api/incidents/${incidentId}`)).json()).toMatchObject({
        status: 'closed',
        acknowledged_by: '@oncall_bob',
        acknowledged_via: 'telegram',
    });

    // 3. Silence 1 h, pressed while the console is down: applied once it is back, and reminders are held back.
    await waitFor('healthy again', async () => (await row())?.status);
    shift(20 * MIN);
    const beforeSecond = texts().length;
    sim.control.halt(0);
    await waitFor('the second alert', () =>
        texts()
            .slice(beforeSecond)
            .some((x) => x.includes('ALERT'))
    );
    const second = buttonsOfLastAlert();
    await t.close();
    const silenced = press(second['Silence 1 h'] ?? '', { messageId: 42 });
    t = await startAppOn(config);
    expect((await answerFor(silenced)).text).toMatch(/^Silenced until \d\d:\d\d UTC by @oncall_bob\.$/);
    await waitFor('the keyboard edited away', () => telegram.edits.length >= 2);
    expect(telegram.edits[1]).toEqual({ chat_id: Number(CHAT), message_id: 42, reply_markup: { inline_keyboard: [] } });
    const silences = (await call('GET', '/api/silences')).json().results;
    expect(silences).toHaveLength(1);
    expect(silences[0]).toMatchObject({
        monitor_id: monitorId,
        active: true,
        reason: 'Silenced from Telegram by @oncall_bob',
        created_by: 'Telegram @oncall_bob',
    });
    expect(Date.parse(silences[0].ends_at) - Date.now()).toBeGreaterThan(55 * MIN);
    expect((await call('GET', `/api/monitors/${monitorId}`)).json().silenced_until).toBe(silences[0].ends_at);
    const sentWhileSilenced = texts().length;
    shift(3 * MIN);
    await pause(6000);
    expect(texts().slice(sentWhileSilenced)).toEqual([]);
    expect(answersTo(silenced)).toHaveLength(1);
});
