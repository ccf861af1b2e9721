import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { type Receiver, startReceiver } from '../../support/fake-receivers';
import { createWorld, type World } from '../config-fixtures';
import { login, seedUser } from '../helpers';

/**
 * A channel test tells what failed without repeating what the destination said: whoever owns the URL or the host
 * chose that text (an internal service's banner, a page of its own), and a channel test must not read it out.
 */
let w: World;
let receiver: Receiver;
const smtpLike: Server[] = [];

beforeAll(async () => {
    receiver = await startReceiver({ status: 200, body: 'ok' });
    w = await createWorld();
});
afterAll(async () => {
    await w.t.close();
    await receiver.close();
    for (const s of smtpLike) await new Promise((r) => s.close(r));
});

/** A TCP service that greets with `greeting` and answers every later line with `reply(line)`. */
async function listen(greeting: string, reply: (line: string) => string = () => '502 SECRET-REPLY'): Promise<number> {
    const server = createServer((socket) => {
        socket.write(`${greeting}\r\n`);
        let buffered = '';
        socket.on('data', (chunk) => {
            buffered += chunk.toString('utf8');
            for (let i = buffered.indexOf('\r\n'); i >= 0; i = buffered.indexOf('\r\n')) {
                const line = buffered.slice(0, i);
                buffered = buffered.slice(i + 2);
                if (/^QUIT/i.test(line)) socket.end('221 SECRET-BYE\r\n');
                else socket.write(`${reply(line)}\r\n`);
            }
        });
        socket.on('error', () => {});
    });
    smtpLike.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return (server.address() as AddressInfo).port;
}

let testers = 0;
async function test(type: string, configuration_object: object) {
    // Five tests a minute per user: a fresh tester each time.
    const username = `tester${++testers}`;
    await seedUser(w.t.app, { username, companyId: w.acme, isAdmin: true });
    const token = (await login(w.t.app, username)).access;
    return w.call('POST', '/api/notification-channels/test', token, { name: 'ops', type, configuration_object });
}

const smtp = (port: number) => ({
    host: '127.0.0.1',
    port,
    security: 'none',
    from: 'alerts@example.com',
    to: 'ops@example.com',
});

describe('channel-test errors never echo the destination', () => {
    it("webhook: the status only, not the receiver's body", async () => {
        receiver.script.push({ status: 500, body: 'SECRET-RECEIVER-BODY: db password is hunter2' });
        const res = await test('webhook', { url: `${receiver.url}/hook`, secret: 'whsec-1' });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe('The webhook answered HTTP 500');
    });

    it('slack: its known error codes, never another body', async () => {
        receiver.script.push({ status: 400, body: 'SECRET-SLACK-BODY <html>internal</html>' });
        const page = await test('slack', { webhook_url: `${receiver.url}/services/x` });
        expect(page.json().message).toBe('Slack answered HTTP 400');
        receiver.script.push({ status: 403, body: 'secret_looking_token_abc' });
        const word = await test('slack', { webhook_url: `${receiver.url}/services/x` });
        expect(word.json().message).toBe('Slack answered HTTP 403');
        receiver.script.push({ status: 403, body: 'invalid_token' });
        expect((await test('slack', { webhook_url: `${receiver.url}/services/x` })).json().message).toBe(
            'Slack: invalid_token'
        );
    });

    it('email: not the greeting of something that is not an SMTP server', async () => {
        const port = await listen('SSH-2.0-OpenSSH_9.2 SECRET-BANNER');
        const res = await test('email', smtp(port));
        expect(res.json().message).not.toMatch(/SECRET|OpenSSH/);
        expect(res.json().message).toMatch(/^The SMTP server /);
    });

    it('email: not the text of a refusing greeting', async () => {
        const port = await listen('554 SECRET-GREETING internal-mail.corp go away');
        const res = await test('email', smtp(port));
        expect(res.statusCode).toBe(400);
        expect(res.json().message).not.toMatch(/SECRET|corp/);
        expect(res.json().message).toMatch(/^The SMTP server answered 554/);
    });

    it("email: a command's reply code and enhanced status, not its text", async () => {
        const port = await listen('220 SECRET-HOST ESMTP', (line) =>
            /^(EHLO|HELO)/i.test(line) ? '250 SECRET-HELLO' : '550 5.7.1 SECRET-REPLY relaying denied for hunter2'
        );
        const res = await test('email', smtp(port));
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(
            'The SMTP server answered 550 5.7.1: it refused the mailbox (unknown or not allowed)'
        );
    });
});
