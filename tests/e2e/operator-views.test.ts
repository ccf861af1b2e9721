import type { ChildProcess } from 'node:child_process';
import { statfsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import WebSocket from 'ws';
import type { ChainSim } from '../../tools/chain-sim';
import { startChainSim } from '../../tools/chain-sim';
import type { Console } from './harness';
import { startNodeExporter } from '../support/spawn';
import { ADMIN_PASSWORD, api, openBrowser, signIn, startConsole } from './harness';

/**
 * The pages an operator keeps open, against the real server, the chain simulator and Debian's node_exporter:
 * the dashboard turns red on its own when a node halts and back when it resumes, network status shows the
 * exporter's real figures, and the log tail streams what the API just did.
 */
let server: Console;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let sim: ChainSim;
let exporter: ChildProcess;
let call: Awaited<ReturnType<typeof api>>;

const root = new URL('../..', import.meta.url).pathname;

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 500 });
    let exporterUrl: string;
    ({ child: exporter, url: exporterUrl } = await startNodeExporter());
    server = await startConsole();
    call = await api(server.url, 'admin', ADMIN_PASSWORD);
    // The simulator and node_exporter listen on loopback: the company's allowed networks open it.
    const company = await call('POST', '/companies', {
        name: 'Operators',
        is_active: true,
        allowed_networks: ['127.0.0.0/8'],
    });
    await call('POST', '/users', {
        username: 'viewer',
        is_active: true,
        is_admin: false,
        is_super_admin: false,
        company_id: company.id,
        raw_password: 'viewer-password',
    });
    const cfg = await call('POST', '/configurations', {
        name: 'Hub mainnet',
        chain: 'cosmoshub',
        is_enabled: true,
        company_id: company.id,
    });
    const node = sim.nodes[0];
    if (!node) throw new Error('no simulated node');
    const srv = await call('POST', '/servers', {
        name: 'hub-validator',
        address: 'http://127.0.0.1',
        is_enabled: true,
        configuration_id: cfg.id,
    });
    for (const [type, address] of [
        ['rpc', node.rpcUrl],
        ['node_exporter', exporterUrl],
    ]) {
        await call('POST', '/services', { name: type, type, address, is_enabled: true, server_id: srv.id });
    }
    await call('POST', '/monitors', {
        name: 'Block production',
        type: 'blockCheck',
        is_enabled: true,
        configuration_id: cfg.id,
        server_id: srv.id,
        configuration_object: JSON.stringify({
            miss_tolerance: 2,
            miss_tolerance_period_seconds: 5,
            sleep_duration_seconds: 1,
            alert_sleep_duration_minutes: 10,
        }),
    });
    browser = await openBrowser();
    page = browser.page;
    await signIn(page, server.url, 'admin', ADMIN_PASSWORD);
});
afterAll(async () => {
    await browser?.close();
    await server?.stop();
    exporter?.kill();
    await sim?.close();
});

const stat = (title: string) => page.getByLabel(title, { exact: true });

async function waitForText(locator: ReturnType<Page['getByLabel']>, text: string, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    while ((await locator.textContent()) !== text) {
        if (Date.now() > deadline) throw new Error(`expected "${text}", still "${await locator.textContent()}"`);
        await page.waitForTimeout(500);
    }
}

describe('operator views', () => {
    it('turns the dashboard red when the node halts and back when it resumes, without a reload', async () => {
        await page.goto(`${server.url}/`);
        await waitForText(stat('Critical Issues'), '0', 20_000);
        sim.control.halt(0);
        // Error within a few polls, then the dashboard's own 30 s refresh shows it.
        await waitForText(stat('Critical Issues'), '1', 50_000);
        await page.getByRole('tab', { name: 'Critical Issues (1)' }).waitFor();
        await page.getByRole('cell', { name: 'Block production' }).waitFor();
        // The README's screenshot: refreshed with UPDATE_SCREENSHOTS=1, else kept out of the work tree.
        await page.screenshot({
            path: join(root, process.env.UPDATE_SCREENSHOTS ? 'docs/dashboard.png' : '.tmp/dashboard.png'),
        });
        sim.control.resume(0);
        await waitForText(stat('Critical Issues'), '0', 50_000);
        await page.getByText('No critical issues found').waitFor();
    });

    it("shows the real node_exporter's disk and memory on Network Status", async () => {
        await page.goto(`${server.url}/network-status`);
        await page.getByRole('heading', { name: 'Network Status', level: 1 }).waitFor();
        const row = page.getByRole('row', { name: /hub-validator/ });
        await row
            .getByText(/^\d+% \(\d+\.\d\d (GB|TB|MB) \/ \d+\.\d\d (GB|TB|MB)\)$/)
            .first()
            .waitFor({ timeout: 30_000 });
        const cells = await row.getByRole('cell').allTextContents();
        const disk = cells.find((c) => /^\d+% \(/.test(c)) ?? '';
        const fs = statfsSync('/');
        const expected = 100 - (fs.bavail / fs.blocks) * 100;
        expect(Math.abs(Number(disk.split('%')[0]) - expected)).toBeLessThanOrEqual(2);
    });

    it('streams the log tail, filters and clears it', async () => {
        await page.goto(`${server.url}/logger`);
        const log = page.getByRole('log', { name: 'Log messages' });
        await log.getByText('WebSocket connection established!').waitFor();
        await call('POST', '/companies', { name: 'Streamed Co', is_active: true });
        await log
            .getByText(/POST \/api\/companies/)
            .first()
            .waitFor({ timeout: 10_000 });
        await page.getByLabel('Filter messages').fill('POST /api/companies');
        await log
            .getByText(/POST \/api\/companies/)
            .first()
            .waitFor();
        expect(await log.getByText('WebSocket connection established!').count()).toBe(0);
        await page.getByLabel('Filter messages').fill('');
        await page.getByRole('button', { name: 'Clear' }).click();
        await log.getByText('No messages').waitFor();
    });

    it('refuses the log socket to a user who is not a super admin', async () => {
        const viewer = await api(server.url, 'viewer', 'viewer-password');
        const me = await viewer<{ is_super_admin: boolean }>('GET', '/users/me');
        expect(me.is_super_admin).toBe(false);
        const login = await fetch(`${server.url}/api/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: 'viewer', password: 'viewer-password' }),
        });
        const token = ((await login.json()) as { accessToken: { token: string } }).accessToken.token;
        const ticket = await fetch(`${server.url}/api/logs/ticket`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}` },
        });
        expect(ticket.status).toBe(403);
        // Nor does the socket take the token itself (it would sit in proxy logs).
        const status = await new Promise<number>((resolve) => {
            const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/logs?token=${token}`, {
                headers: { origin: server.url },
            });
            ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
            ws.on('open', () => resolve(101));
        });
        expect(status).toBe(401);
    });
});
