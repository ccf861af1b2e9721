import type { TestApp } from '../helpers';
import { auth, createTestApp, login } from '../helpers';

/** Answers with tokens or data are never cached; the page may only connect back to its own origin. */
let t: TestApp;
let root: { access: string; refresh: string };

beforeAll(async () => {
    t = await createTestApp();
    root = await login(t.app, 'admin', 'admin-password-1');
});
afterAll(() => t.close());

const connectSrc = (csp: unknown) =>
    String(csp)
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith('connect-src'));

describe('Cache-Control', () => {
    it('is no-store on every API answer that carries tokens or data, errors included', async () => {
        const answers = [
            await t.app.inject({
                method: 'POST',
                url: '/api/login',
                payload: { username: 'admin', password: 'admin-password-1' },
            }),
            await t.app.inject({ method: 'POST', url: '/api/refresh', headers: auth(root.refresh) }),
            await t.app.inject({ url: '/api/users/me', headers: auth(root.access) }),
            await t.app.inject({ url: '/api/configurations', headers: auth(root.access) }),
            await t.app.inject({ url: '/api/companies?range=[0,9]', headers: auth(root.access) }),
            await t.app.inject({ url: '/api/configurations/999', headers: auth(root.access) }),
            await t.app.inject({ url: '/api/users/me' }),
        ];
        expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 404, 401]);
        for (const r of answers) expect(r.headers['cache-control']).toBe('no-store');
    });
});

describe('CSP connect-src', () => {
    it("allows only the console's own origin, not any ws:/wss: host", async () => {
        const res = await t.app.inject({ url: '/api/health' });
        expect(connectSrc(res.headers['content-security-policy'])).toBe("connect-src 'self'");
    });

    it('allows exactly the configured SOCKET_URL origin besides its own', async () => {
        const other = await createTestApp({ socketUrl: 'wss://logs.example.com:8443/api/logs' });
        try {
            const res = await other.app.inject({ url: '/api/health' });
            expect(connectSrc(res.headers['content-security-policy'])).toBe(
                "connect-src 'self' wss://logs.example.com:8443"
            );
        } finally {
            await other.close();
        }
    });
});
