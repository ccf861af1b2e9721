import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One request a fake receiver got. */
export interface Received {
    method: string;
    path: string;
    headers: IncomingHttpHeaders;
    raw: string;
    json: unknown;
}

export interface Reply {
    status: number;
    /** JSON-encoded unless a string. */
    body?: unknown;
    headers?: Record<string, string>;
}

/** A loopback HTTP receiver: records every request and answers from `script`, else with `fallback`. */
export interface Receiver {
    url: string;
    received: Received[];
    script: Reply[];
    /** Consulted first: a reply for this request, or undefined to go on with `script`/`fallback`. */
    reply?: (r: Received) => Reply | undefined;
    fallback: Reply;
    close(): Promise<void>;
}

export async function startReceiver(fallback: Reply): Promise<Receiver> {
    const receiver: Receiver = { url: '', received: [], script: [], fallback, close: async () => {} };
    const server: Server = createServer((req, res) => {
        let raw = '';
        req.on('data', (c: Buffer) => {
            raw += c.toString('utf8');
        });
        req.on('end', () => {
            let json: unknown = null;
            try {
                json = raw ? JSON.parse(raw) : null;
            } catch {
                json = null;
            }
            const r: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, json };
            // Probes (HEAD) are answered but not recorded as messages.
            if (req.method !== 'HEAD') receiver.received.push(r);
            const reply =
                (req.method !== 'HEAD' && (receiver.reply?.(r) ?? receiver.script.shift())) || receiver.fallback;
            const body =
                reply.body === undefined
                    ? ''
                    : typeof reply.body === 'string'
                      ? reply.body
                      : JSON.stringify(reply.body);
            res.writeHead(reply.status, {
                'content-type': typeof reply.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
                ...reply.headers,
            });
            res.end(body);
        });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    receiver.close = () =>
        new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
        });
    return receiver;
}

/** The answers the real services give (their documentation's examples). */
export const answers = {
    discordOk: { status: 204 } as Reply,
    discordRateLimited: (retryAfter: number): Reply => ({
        status: 429,
        body: { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
        headers: { 'retry-after': String(Math.ceil(retryAfter)) },
    }),
    discordUnknownWebhook: { status: 404, body: { message: 'Unknown Webhook', code: 10015 } } as Reply,
    slackOk: { status: 200, body: 'ok' } as Reply,
    slackNoService: { status: 404, body: 'no_service' } as Reply,
    slackInvalidPayload: { status: 400, body: 'invalid_payload' } as Reply,
    slackRateLimited: (retryAfter: number): Reply => ({
        status: 429,
        body: 'rate_limited',
        headers: { 'retry-after': String(retryAfter) },
    }),
    pagerdutyAccepted: (dedupKey = 'key'): Reply => ({
        status: 202,
        body: { status: 'success', message: 'Event processed', dedup_key: dedupKey },
    }),
    pagerdutyInvalid: {
        status: 400,
        body: {
            status: 'invalid event',
            message: 'Event object is invalid',
            errors: ["Length of 'routing_key' is incorrect (should be 32 characters)"],
        },
    } as Reply,
    pagerdutyThrottled: { status: 429, body: '' } as Reply,
};

export interface Mail {
    from: string;
    to: string[];
    raw: string;
}

export interface FakeSmtp {
    port: number;
    mails: Mail[];
    /** Every AUTH the server accepted (it accepts any). */
    logins: { username: string; password: string }[];
    /** When set, every RCPT is refused with this (e.g. 550 "No such user here"). */
    refuseRecipients?: string;
    close(): Promise<void>;
}

/** A real SMTP server (smtp-server) on a loopback port, without TLS, accepting (and recording) any login. */
export async function startSmtp(): Promise<FakeSmtp> {
    const fake: FakeSmtp = { port: 0, mails: [], logins: [], close: async () => {} };
    const server = new SMTPServer({
        disabledCommands: ['STARTTLS'],
        authOptional: true,
        // Loopback only: offering AUTH without TLS lets a test see the credentials a channel logs in with.
        allowInsecureAuth: true,
        logger: false,
        onAuth: (auth, _session, cb) => {
            fake.logins.push({ username: auth.username ?? '', password: auth.password ?? '' });
            cb(null, { user: 'ok' });
        },
        onRcptTo: (_address, _session, cb) => {
            if (fake.refuseRecipients) {
                const err = Object.assign(new Error(fake.refuseRecipients), { responseCode: 550 });
                return cb(err);
            }
            cb();
        },
        onData: (stream, session, cb) => {
            let raw = '';
            stream.on('data', (c: Buffer) => {
                raw += c.toString('utf8');
            });
            stream.on('end', () => {
                fake.mails.push({
                    from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                    to: session.envelope.rcptTo.map((r) => r.address),
                    raw,
                });
                cb();
            });
        },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    fake.port = (server.server.address() as AddressInfo).port;
    fake.close = () => new Promise<void>((r) => server.close(() => r()));
    return fake;
}
