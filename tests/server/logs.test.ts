import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { LogMessage } from '../../common/entities';
import type { TestApp } from './helpers';
import { auth, createTestApp, login, seedCompany, seedUser } from './helpers';

let t: TestApp;
let base: string;
let origin: string;
let rootToken: string;
let adminToken: string;

beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    base = `ws://127.0.0.1:${port}/api/logs`;
    origin = `http://127.0.0.1:${port}`;
    const acme = await seedCompany(t.app, 'Acme');
    await seedUser(t.app, { username: 'acme-admin', companyId: acme, isAdmin: true });
    rootToken = (await login(t.app, 'admin', 'admin-password-1')).access;
    adminToken = (await login(t.app, 'acme-admin')).access;
});
afterAll(() => t.close());

/** A single-use socket ticket bought with an access token (POST /api/logs/ticket). */
async function ticketUrl(token: string): Promise<string> {
    const res = await t.app.inject({ method: 'POST', url: '/api/logs/ticket', headers: auth(token) });
    expect(res.statusCode).toBe(200);
    return `${base}?ticket=${res.json().ticket}`;
}

function connect(url: string, headers: Record<string, string>) {
    const ws = new WebSocket(url, { headers });
    const lines: LogMessage[] = [];
    ws.on('message', (data) => lines.push(JSON.parse(data.toString())));
    const opened = new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('unexpected-response', (_req, res) => reject(new Error(String(res.statusCode))));
        ws.once('error', reject);
    });
    return { ws, lines, opened };
}

describe('WS /api/logs', () => {
    it('replays recent lines and streams new ones as {level, message, timestamp} to a super admin', async () => {
        const { ws, lines, opened } = connect(await ticketUrl(rootToken), { origin });
        await opened;
        await t.app.inject({
            method: 'POST',
            url: '/api/companies',
            headers: auth(rootToken),
            payload: { name: 'Streamed', is_active: true },
        });
        const deadline = Date.now() + 3000;
        while (!lines.some((l) => l.message.includes('POST /api/companies')) && Date.now() < deadline) {
            await new Promise((r) => setTimeout(r, 50));
        }
        const line = lines.find((l) => l.message.includes('POST /api/companies'));
        expect(line).toMatchObject({ level: 'info' });
        expect(Number.isNaN(Date.parse(line?.timestamp ?? ''))).toBe(false);
        ws.close();
    });

    it.each([
        ['no ticket', async (): Promise<string> => base, () => origin, '401'],
        ['another origin', (): Promise<string> => ticketUrl(rootToken), () => 'https://evil.example', '403'],
    ])('refuses %s', async (_who, url, from, status) => {
        const { opened } = connect(await url(), { origin: from() });
        await expect(opened).rejects.toThrow(status);
    });

    it('refuses a ticket to a company admin', async () => {
        const res = await t.app.inject({ method: 'POST', url: '/api/logs/ticket', headers: auth(adminToken) });
        expect(res.statusCode).toBe(403);
    });

    it('never carries a password or token in a line', async () => {
        await t.app.inject({
            method: 'POST',
            url: '/api/login',
            payload: { username: 'admin', password: 'wrong-secret-pw' },
        });
        const all = JSON.stringify(t.app.ctx.logHub.recent()) + t.logs.join('');
        expect(all).not.toContain('wrong-secret-pw');
        expect(all).not.toContain(rootToken);
    });
});
