import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';

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

export async function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const s = createServer();
        s.listen(0, '127.0.0.1', () => {
            const address = s.address();
            const port = typeof address === 'object' && address ? address.port : 0;
            s.close(() => resolve(port));
        });
        s.on('error', reject);
    });
}

export interface Console {
    url: string;
    dataDir: string;
    output: string[];
    stop(): Promise<void>;
    /** Stops the process, keeping the data, and starts it again on the same port. */
    restart(): Promise<void>;
}

/**
 * Builds the UI if stale, then starts the real server (`server/main.ts start`) on a free port and a fresh DATA_DIR
 * holding a copy of the migrated template database (global-setup.ts): the server's first start as on a new install,
 * less the initdb every file would otherwise wait for.
 */
export async function startConsole(env: Record<string, string> = {}): Promise<Console> {
    const build = spawnSync('node', ['tools/build-if-stale.mjs'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('building the UI failed');
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'nm-e2e-'));
    cpSync(join(inject('e2eTemplateDir'), 'pglite'), join(dataDir, 'pglite'), { recursive: true });
    const output: string[] = [];
    let child: ChildProcess;
    const url = `http://127.0.0.1:${port}`;
    const launch = async () => {
        child = spawn(join(root, 'node_modules/.bin/tsx'), ['server/main.ts', 'start'], {
            cwd: root,
            env: {
                ...process.env,
                PORT: String(port),
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
        });
        child.stdout?.on('data', (c: Buffer) => output.push(c.toString()));
        child.stderr?.on('data', (c: Buffer) => output.push(c.toString()));
        const deadline = Date.now() + 60_000;
        for (;;) {
            try {
                const res = await fetch(`${url}/api/health`);
                if (res.ok) return;
            } catch {
                // not listening yet
            }
            if (child.exitCode !== null) throw new Error(`the server exited: ${output.join('')}`);
            if (Date.now() > deadline) throw new Error(`the server did not start: ${output.join('')}`);
            await new Promise((r) => setTimeout(r, 200));
        }
    };
    const kill = () =>
        new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
        });
    await launch();
    return {
        url,
        dataDir,
        output,
        restart: async () => {
            await kill();
            await launch();
        },
        stop: async () => {
            await kill();
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
