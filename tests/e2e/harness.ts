import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AxeResults, RunOptions } from 'axe-core';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { spawnListening } from '../support/spawn';

const root = new URL('../..', import.meta.url).pathname;
export const ADMIN_PASSWORD = 'e2e-admin-password';

/** Flags that keep Debian's Chromium quiet on a machine without internet (see the stack guide). */
const CHROMIUM_ARGS = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
];

export interface Console {
    url: string;
    dataDir: string;
    stop(): Promise<void>;
}

/**
 * Builds the UI if stale, then starts the real server (`server/main.ts start`) on a free port and a fresh DATA_DIR
 * holding a copy of the migrated template database (global-setup.ts): the server's first start as on a new install,
 * less the initdb every file would otherwise wait for.
 */
export async function startConsole(env: Record<string, string> = {}): Promise<Console> {
    const build = spawnSync('node', ['tools/build-if-stale.mjs'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('building the UI failed');
    const dataDir = mkdtempSync(join(tmpdir(), 'nm-e2e-'));
    cpSync(join(inject('e2eTemplateDir'), 'pglite'), join(dataDir, 'pglite'), { recursive: true });
    const { child, port } = await spawnListening(
        (p) =>
            spawn(join(root, 'node_modules/.bin/tsx'), ['server/main.ts', 'start'], {
                cwd: root,
                env: {
                    ...process.env,
                    PORT: String(p),
                    HOST: '127.0.0.1',
                    DATA_DIR: dataDir,
                    ADMIN_PASSWORD,
                    DATABASE_URL: '',
                    TELEGRAM_API_URL: 'http://127.0.0.1:9',
                    CHAIN_DIRECTORY_URL: 'http://127.0.0.1:9',
                    CHAIN_DIRECTORY_TESTNET_URL: 'http://127.0.0.1:9',
                    ...env,
                },
                stdio: ['ignore', 'pipe', 'pipe'],
            }),
        // Printed once the server listens, after its start: nothing more to ask of it.
        /Node Monitor is running on/,
        async () => true,
        60_000
    );
    return {
        url: `http://127.0.0.1:${port}`,
        dataDir,
        stop: async () => {
            if (child.exitCode === null && child.signalCode === null) {
                const exited = new Promise((resolve) => child.once('exit', resolve));
                child.kill('SIGTERM');
                await exited;
            }
            rmSync(dataDir, { recursive: true, force: true });
        },
    };
}

export async function openBrowser(): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
    const profile = mkdtempSync(join(tmpdir(), 'nm-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
        executablePath: '/usr/bin/chromium',
        headless: true,
        args: CHROMIUM_ARGS,
        viewport: { width: 1440, height: 900 },
    });
    const page = context.pages()[0] ?? (await context.newPage());
    return {
        context,
        page,
        close: async () => {
            await context.close();
            rmSync(profile, { recursive: true, force: true });
        },
    };
}

export async function signIn(page: Page, base: string, username: string, password: string): Promise<void> {
    await page.goto(`${base}/login`);
    await page.getByRole('textbox', { name: 'Username' }).fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
        .getByRole('button', { name: 'Logout' })
        .or(page.getByText('Logout'))
        .first()
        .waitFor({ timeout: 20_000 });
}

/** Creates rows through the API as a given user, for steps a test does not exercise in the browser. */
export async function api(base: string, username: string, password: string) {
    const login = await fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
    });
    if (!login.ok) throw new Error(`login failed: ${login.status}`);
    const token = ((await login.json()) as { accessToken: { token: string } }).accessToken.token;
    return async <T = { id: number }>(method: string, path: string, body?: object): Promise<T> => {
        const res = await fetch(`${base}/api${path}`, {
            method,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: body ? JSON.stringify(body) : undefined,
        });
        if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
        return (await res.json()) as T;
    };
}

// axe-core itself, injected into the page: its Playwright wrapper's current release declares Node 22, this product 20.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's verdict on the page as it is now. */
export async function runAxe(page: Page, options: RunOptions): Promise<AxeResults> {
    await page.evaluate(AXE_SOURCE);
    return page.evaluate(
        (opts) =>
            (window as unknown as { axe: { run(c: Document, o: RunOptions): Promise<AxeResults> } }).axe.run(
                document,
                opts
            ),
        options
    );
}
