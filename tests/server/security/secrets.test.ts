import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { redact } from '../../../server/clients/http';
import { escapeHtml } from '../../../server/notify/format';
import { createWorld, type World } from '../config-fixtures';

/** Security checklist items 22–25 and 33: bot tokens never read back, never in errors or logs; HTML escaped. */
const TOKEN = '5550001112:AAHneverShowThisSecretPart_0123456789';
const ECHO_TOKEN = '5550001113:AAHechoedBackByTheFakeTelegram_abcdef';
const HTML_TOKEN = '5550001114:AAHhtmlErrorPageEchoesTheUrl_ghijklmn';
const HALF_TOKEN = '5550001115:AAHonlyTheSecretHalfIsEchoed_opqrstu';
const ENCODED_TOKEN = '5550001116:AAHurlEncodedTokenIsEchoedBack_vwxyz';
const SECRETS = /AAHneverShow|AAHechoedBack|AAHhtmlError|AAHonlyTheSecretHalf|AAHurlEncodedToken/;

const sent: { path: string; text: string }[] = [];

/** Accepts TOKEN; echoes the whole request URL (with the token) in a JSON description or an HTML error page. */
function fakeTelegram() {
    return http.createServer((req, res) => {
        let raw = '';
        req.on('data', (c) => {
            raw += c;
        });
        req.on('end', () => {
            const url = req.url ?? '';
            sent.push({ path: url, text: String(JSON.parse(raw || '{}').text ?? '') });
            if (url.includes(TOKEN)) {
                res.writeHead(200, { 'content-type': 'application/json' });
                return res.end(JSON.stringify({ ok: true, result: { message_id: 1 } }));
            }
            if (url.includes(HALF_TOKEN)) {
                res.writeHead(401, { 'content-type': 'application/json' });
                const half = HALF_TOKEN.split(':')[1];
                return res.end(
                    JSON.stringify({ ok: false, error_code: 401, description: `Unauthorized: key ${half}` })
                );
            }
            if (url.includes(ENCODED_TOKEN)) {
                res.writeHead(404, { 'content-type': 'application/json' });
                const encoded = encodeURIComponent(ENCODED_TOKEN);
                return res.end(
                    JSON.stringify({
                        ok: false,
                        error_code: 404,
                        description: `Not Found: /bot=${encoded} (${encoded})`,
                    })
                );
            }
            if (url.includes(ECHO_TOKEN)) {
                res.writeHead(401, { 'content-type': 'application/json' });
                return res.end(
                    JSON.stringify({
                        ok: false,
                        error_code: 401,
                        description: `Unauthorized: POST https://api.telegram.org${url} (token ${ECHO_TOKEN})`,
                    })
                );
            }
            res.writeHead(502, { 'content-type': 'text/html' });
            res.end(`<html><body>Bad gateway for ${url}</body></html>`);
        });
    });
}

let w: World;
let fake: http.Server;
let channelId = 0;
let linkId = 0;
let configurationId = 0;

beforeAll(async () => {
    fake = fakeTelegram();
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    w = await createWorld({ telegramApiUrl: `http://127.0.0.1:${(fake.address() as AddressInfo).port}` });
    configurationId = await w.configuration(w.admin.access, { name: '<img src=x onerror=alert(1)>' });
    const created = await w.call('POST', '/api/notification-channels', w.admin.access, {
        name: 'Ops',
        type: 'telegram',
        configuration_object: JSON.stringify({ bot_token: TOKEN, chat_id: '-100123' }),
    });
    expect(created.statusCode).toBe(201);
    expect(created.body).not.toMatch(SECRETS);
    channelId = created.json().id;
    linkId = (
        await w.call('POST', `/api/configurations/${configurationId}/notification-channels`, w.admin.access, {
            configuration_id: configurationId,
            notification_channel_id: channelId,
        })
    ).json().id;
});
afterAll(async () => {
    await w.t.close();
    await new Promise((resolve) => fake.close(resolve));
});

const test = (token: string, name = 'Ops', as = w.admin.access) =>
    w.call('POST', '/api/notification-channels/test', as, {
        name,
        type: 'telegram',
        configuration_object: { bot_token: token, chat_id: '-100123' },
    });

describe('#22 secret read-back', () => {
    it('masks the token on every read, for every role', async () => {
        for (const token of [w.root.access, w.admin.access, w.plain.access]) {
            for (const url of [
                '/api/notification-channels',
                `/api/notification-channels/${channelId}`,
                '/api/notification-channels?range=[0,9]&sort=["name","ASC"]',
                `/api/configurations/${configurationId}/notification-channels`,
                `/api/configurations/${configurationId}`,
                '/api/configurations',
                '/api/audit/latest',
            ]) {
                const res = await w.call('GET', url, token);
                expect(res.statusCode, url).toBe(200);
                expect(res.body, url).not.toMatch(SECRETS);
            }
        }
        const one = (await w.call('GET', `/api/notification-channels/${channelId}`, w.plain.access)).json();
        expect(JSON.parse(one.configuration_object)).toEqual({ bot_token: '••••6789', chat_id: '-100123' });
        expect(linkId).toBeGreaterThan(0);
    });

    it('answers an update with the mask, and the mask sent back keeps the token', async () => {
        const res = await w.call('PUT', `/api/notification-channels/${channelId}`, w.admin.access, {
            name: 'Ops',
            type: 'telegram',
            configuration_object: JSON.stringify({ bot_token: '••••6789', chat_id: '-100123' }),
        });
        expect(res.statusCode).toBe(200);
        expect(res.body).not.toMatch(SECRETS);
        const byId = await w.call('POST', '/api/notification-channels/test', w.admin.access, {
            id: channelId,
            name: 'Ops',
            type: 'telegram',
            configuration_object: { bot_token: '••••6789', chat_id: '-100123' },
        });
        expect(byId.statusCode).toBe(200);
        expect(sent.at(-1)?.path).toBe(`/bot${TOKEN}/sendMessage`);
    });
});

describe('#23 at rest', () => {
    it('stores no plaintext token', async () => {
        const rows = await w.t.app.ctx.db.execute('select * from notification_channels');
        expect(JSON.stringify(rows)).not.toMatch(SECRETS);
        expect(JSON.stringify(rows)).toContain('enc:v1:');
    });
});

describe('#24 leakage via errors', () => {
    it('keeps the token out of a Telegram refusal that echoes it', async () => {
        const res = await test(ECHO_TOKEN);
        expect(res.statusCode).toBe(400);
        expect(res.body).not.toMatch(SECRETS);
        expect(res.json().message).toMatch(/^Unauthorized/);
    });

    it('keeps the secret half of the token out of a refusal that echoes only that half', async () => {
        const res = await test(HALF_TOKEN, 'Ops', w.other.access); // another writer: the test route allows 5 a minute
        expect(res.statusCode).toBe(400);
        expect(res.body).not.toMatch(SECRETS);
        expect(res.json().message).toMatch(/^Unauthorized: key \*\*\*/);
    });

    it('keeps a URL-encoded token (%3A) out of a refusal that echoes it', async () => {
        const res = await test(ENCODED_TOKEN, 'Ops', w.other.access);
        expect(res.statusCode).toBe(400);
        expect(res.body).not.toMatch(SECRETS);
        expect(res.body).not.toContain('5550001116');
    });

    it('redact() catches a URL-encoded token and the bot path even without a slash before it', () => {
        expect(redact(`token=${encodeURIComponent(ENCODED_TOKEN)}`)).toBe('token=***');
        expect(redact(`token=5550001116%3aAAHurlEncodedTokenIsEchoedBack_vwxyz`)).toBe('token=***');
    });

    it('keeps the token out of an HTML error page that echoes the URL', async () => {
        const res = await test(HTML_TOKEN);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: 'Telegram answered HTTP 502' });
    });

    it('keeps the token out of logs and audit entries after all of the above', async () => {
        expect(w.t.logs.join('\n')).not.toMatch(SECRETS);
        expect(JSON.stringify(await w.audit())).not.toMatch(SECRETS);
    });
});

describe('#33 names with HTML', () => {
    it('are escaped in the Telegram HTML message', async () => {
        const res = await test(TOKEN, '<img src=x onerror=alert(1)> & <b>');
        expect(res.statusCode).toBe(200);
        const text = sent.at(-1)?.text ?? '';
        expect(text).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &lt;b&gt;');
        expect(text).not.toContain('<img');
    });

    it('come back from the API as the plain text typed (the UI renders text, not HTML)', async () => {
        const res = await w.call('GET', `/api/configurations/${configurationId}`, w.admin.access);
        expect(res.json().name).toBe('<img src=x onerror=alert(1)>');
        expect(res.headers['content-type']).toMatch(/^application\/json/);
    });

    it('escapeHtml covers exactly the three characters Telegram needs', () => {
        expect(escapeHtml(`<a href="javascript:x">&'</a>`)).toBe(`&lt;a href="javascript:x"&gt;&amp;'&lt;/a&gt;`);
    });
});
