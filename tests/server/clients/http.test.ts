import type http from 'node:http';
import { createHttpClient, HttpError, redact, snippet } from '../../../server/clients/http';
import { closedPortUrl, type Loopback, startLoopback } from '../check-support';

let server: Loopback;
let hits: { url: string; auth?: string }[] = [];

const handler: http.RequestListener = (req, res) => {
    const url = req.url ?? '/';
    hits.push({ url, auth: req.headers.authorization });
    if (url === '/json') return void res.end('{"a":1}');
    if (url === '/bad-json') return void res.end('<html>oops</html>');
    if (url === '/error') {
        res.writeHead(503);
        return void res.end(`Service Unavailable ${'x'.repeat(10_000)}`);
    }
    if (url === '/slow') return; // accepts, never answers
    if (url === '/huge') {
        // An endless chunked stream: the client must stop at the cap.
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 97);
        const pump = () => {
            while (res.write(chunk)) {
                /* fill the socket buffer */
            }
        };
        res.on('drain', pump);
        res.on('error', () => undefined);
        return pump();
    }
    if (url === '/declared-huge') {
        res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
        return void res.write('x');
    }
    if (url === '/to-metadata') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return void res.end();
    }
    if (url === '/to-relative') {
        res.writeHead(301, { location: '/json' });
        return void res.end();
    }
    if (url.startsWith('/loop')) {
        const n = Number(url.slice(5) || '0');
        res.writeHead(302, { location: `/loop${n + 1}` });
        return void res.end();
    }
    res.writeHead(404);
    res.end('not found');
};

beforeAll(async () => {
    server = await startLoopback(handler);
});
afterAll(() => server.close());
beforeEach(() => {
    hits = [];
});

describe('createHttpClient', () => {
    // The single-tenant switch: the loopback server is reachable without a policy.
    const client = createHttpClient({ timeoutMs: 2000, allowPrivate: true });

    it('returns status, headers and text', async () => {
        const res = await client.request(`${server.url}/json`);
        expect(res.status).toBe(200);
        expect(res.text).toBe('{"a":1}');
        expect(typeof res.headers).toBe('object');
        expect(await client.getJson(`${server.url}/json`)).toEqual({ a: 1 });
    });

    it('names the status and its reason phrase on non-2xx, never the body', async () => {
        const err = await client.getJson(`${server.url}/error`).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(HttpError);
        const e = err as HttpError;
        expect(e.status).toBe(503);
        expect(e.message).toMatch(/answered HTTP 503 Service Unavailable$/);
        expect(e.message).not.toContain('xxx');
    });

    it('reports invalid JSON without quoting the body', async () => {
        const err = (await client.getJson(`${server.url}/bad-json`).catch((e: unknown) => e)) as HttpError;
        expect(err.message).toMatch(/answered with invalid JSON$/);
        expect(err.message).not.toContain('oops');
    });

    it('times out cleanly on a server that never answers', async () => {
        const started = Date.now();
        await expect(client.request(`${server.url}/slow`, { timeoutMs: 200 })).rejects.toThrow(
            'did not answer within 0.2 s'
        );
        expect(Date.now() - started).toBeLessThan(5000);
    });

    it('stops reading an endless body at the cap', async () => {
        const err = (await client.request(`${server.url}/huge`).catch((e: unknown) => e)) as HttpError;
        expect(err.kind).toBe('too_large');
        expect(err.message).toContain('Response body exceeds 1 MiB');
    });

    it('refuses a declared oversize body before reading it', async () => {
        await expect(client.request(`${server.url}/declared-huge`)).rejects.toThrow('Response body exceeds 1 MiB');
    });

    it('can truncate instead of failing when only the status matters', async () => {
        const res = await client.request(`${server.url}/huge`, { truncateBody: true, maxBodyBytes: 1000 });
        expect(res.truncated).toBe(true);
        expect(res.text.length).toBe(1000);
    });

    it('refuses a redirect to cloud metadata', async () => {
        const err = (await client.request(`${server.url}/to-metadata`).catch((e: unknown) => e)) as HttpError;
        expect(err.kind).toBe('refused');
        expect(err.message).toContain('cloud metadata');
    });

    it('follows relative redirects and stops after 5', async () => {
        expect((await client.request(`${server.url}/to-relative`)).text).toBe('{"a":1}');
        await expect(client.request(`${server.url}/loop0`)).rejects.toThrow('redirected more than 5 times');
        expect(hits.filter((h) => h.url.startsWith('/loop'))).toHaveLength(6);
    });

    it.each([
        'file:///etc/passwd',
        'gopher://127.0.0.1:70/',
        'ftp://example.com/',
        'data:text/plain,hi',
        'ws://127.0.0.1/',
    ])('refuses the scheme of %s', async (url) => {
        await expect(client.request(url)).rejects.toThrow('only http and https');
    });

    it('rejects a malformed URL', async () => {
        await expect(client.request('not a url')).rejects.toThrow('is not a valid URL');
    });

    it.each([
        'http://169.254.169.254/latest/meta-data/',
        'http://[fd00:ec2::254]/',
        'http://[fe80::1]/',
        'http://[::ffff:169.254.169.254]/',
        'http://100.100.100.200/',
        'http://metadata.google.internal/computeMetadata/v1/',
        'http://METADATA.google.internal./',
    ])('always refuses %s, even with private targets allowed', async (url) => {
        await expect(client.request(url)).rejects.toThrow('is refused');
    });

    it('sends URL credentials as basic auth and never shows them', async () => {
        const base = server.url.replace('http://', 'http://alice:s3cret@');
        await client.request(`${base}/json`);
        expect(hits[0]?.auth).toBe(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`);
        const closed = (await closedPortUrl()).replace('http://', 'http://alice:s3cret@');
        const err = (await client
            .request(`${closed}/bot123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage`)
            .catch((e: unknown) => e)) as HttpError;
        expect(err.message).toContain('refused the connection');
        expect(err.message).not.toContain('s3cret');
        expect(err.message).not.toContain('AAHdqTcv');
        expect(err.message).toContain('/bot***/sendMessage');
    });

    it('reports cancellation by the caller', async () => {
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 50);
        await expect(client.request(`${server.url}/slow`, { signal: controller.signal })).rejects.toThrow('cancelled');
    });
});

describe('private targets switched off', () => {
    const strict = createHttpClient({ timeoutMs: 2000 });

    it.each([
        'http://127.0.0.1/',
        'http://[::1]/',
        'http://0.0.0.0/',
        'http://2130706433/',
        'http://0x7f.1/',
        'http://127.1/',
        'http://10.0.0.5/',
        'http://192.168.1.1/',
    ])('refuses %s', async (url) => {
        await expect(strict.request(url)).rejects.toThrow("outside the company's allowed networks");
    });

    it('checks the resolved address at connect time (DNS rebinding)', async () => {
        const rebinding = createHttpClient({
            allowPrivate: false,
            resolve: async () => [{ address: '10.0.0.5', family: 4 }],
        });
        await expect(rebinding.request('http://public.example/')).rejects.toThrow(
            'public.example resolves to 10.0.0.5'
        );
        const toMetadata = createHttpClient({ resolve: async () => [{ address: '169.254.169.254', family: 4 }] });
        await expect(toMetadata.request('http://innocent.example/')).rejects.toThrow('cloud metadata');
    });
});

describe('redaction helpers', () => {
    it('removes credentials and bot tokens', () => {
        expect(redact('https://u:p@api.telegram.org/bot123:abc/getMe')).toBe('https://api.telegram.org/bot***/getMe');
    });

    it('cuts snippets to 256 bytes on a character boundary', () => {
        const s = snippet('é'.repeat(400));
        expect(Buffer.byteLength(s)).toBeLessThanOrEqual(256);
        expect(s.endsWith('…')).toBe(true);
    });
});
