import dns from 'node:dns/promises';
import { isIP, Socket } from 'node:net';
import nodemailer from 'nodemailer';
import { allowedNetworks, refusalReason, refusedHostName } from '../../clients/address-guard';
import { escapeHtml, plain } from '../format';
import { LINK_TEXT, messageOf, textOf, titleOf } from '../message';
import { clip, plainDigest } from './common';
import { setting } from './settings';
import type { ChannelConfig, ChannelDefinition, NotifyContext, SendResult } from './types';

interface Mail {
    subject: string;
    text: string;
    html: string;
}

const ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;
/** `ops@example.com` or `Node Monitor <ops@example.com>`. */
const MAILBOX = /^(?:[^<>,;"\r\n]*<([^<>\s]+)>|([^<>\s]+))$/;
const HOST = /^[A-Za-z0-9.-]{1,253}$|^\[?[0-9A-Fa-f:.]+\]?$/;

const recipients = (to: string) =>
    to
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);

function check(config: ChannelConfig): Record<string, string> {
    const errors: Record<string, string> = {};
    const host = setting(config, 'host');
    if (host && !HOST.test(host)) errors.host = 'SMTP host must be a host name or an IP address';
    const port = config.port;
    if (typeof port === 'number' && (port < 1 || port > 65535)) errors.port = 'Port must be between 1 and 65535';
    const from = setting(config, 'from');
    const fromAddress = MAILBOX.exec(from);
    if (from && !(fromAddress && ADDRESS.test(fromAddress[1] ?? fromAddress[2] ?? '')))
        errors.from = 'From must be an e-mail address, e.g. alerts@example.com';
    const to = setting(config, 'to');
    if (to) {
        const bad = recipients(to).find((a) => !ADDRESS.test(a));
        if (bad !== undefined || recipients(to).length === 0)
            errors.to = `To must be e-mail addresses separated by commas${bad ? ` ("${bad.slice(0, 80)}" is not one)` : ''}`;
        else if (recipients(to).length > 50) errors.to = 'To may name at most 50 addresses';
    }
    if (setting(config, 'password') && !setting(config, 'username'))
        errors.username = 'Please enter the username the password belongs to!';
    return errors;
}

function mail(heading: string, lines: string[], url?: string): Mail {
    const link = url
        ? {
              text: ['', `${LINK_TEXT}: ${url}`],
              html: `\n<p><a href="${escapeHtml(url).replace(/"/g, '&quot;')}">${LINK_TEXT}</a></p>`,
          }
        : { text: [], html: '' };
    return {
        subject: clip(heading.replace(/[\r\n]+/g, ' '), 200),
        text: [heading, '', ...lines, ...link.text].join('\n'),
        html: `<h3>${escapeHtml(heading)}</h3>\n<p>${lines.map(escapeHtml).join('<br>\n')}</p>${link.html}`,
    };
}

/**
 * The address to connect to, checked as the egress client checks HTTP targets (no metadata or link-local address,
 * no private one unless allowed), resolved once so that the connection goes to the address that was checked.
 */
async function resolveHost(ctx: NotifyContext, host: string): Promise<{ address: string } | { refused: string }> {
    const bare = host.replace(/^\[|\]$/g, '');
    const named = refusedHostName(bare);
    if (named) return { refused: named };
    const addresses = isIP(bare) ? [{ address: bare }] : await dns.lookup(bare, { all: true });
    for (const a of addresses) {
        const why = refusalReason(a.address, ctx.allowPrivate, allowedNetworks(ctx.policy));
        if (why) return { refused: why };
    }
    const first = addresses[0];
    return first ? { address: first.address } : { refused: `${host} has no address` };
}

/** What the SMTP reply codes mean, in our words (RFC 5321, 4954). */
const REPLY_MEANING: Record<number, string> = {
    421: 'is not available now',
    450: 'could not use the mailbox now',
    451: 'failed on its side',
    452: 'is out of storage',
    454: 'could not authenticate now',
    500: 'did not understand a command',
    501: 'refused a command argument',
    502: 'does not implement a command',
    503: 'refused the command order',
    504: 'does not support a parameter',
    521: 'accepts no mail',
    530: 'requires authentication',
    534: 'requires a stronger authentication mechanism',
    535: 'refused the username or password',
    538: 'requires encryption for authentication',
    550: 'refused the mailbox (unknown or not allowed)',
    551: 'refused the recipient (not local)',
    552: 'refused the message size',
    553: 'refused the mailbox name',
    554: 'refused the transaction',
    556: 'refused the domain',
};

/**
 * A failed send as the console tells it: the reply code, its enhanced status code and a meaning of our own, or
 * nodemailer's error code. The server's own text (its greeting, its replies) is never shown: whatever listens at
 * the host chose it.
 */
function smtpFailure(e: { code?: string; responseCode?: number; response?: string }): string {
    if (e.code === 'EPROTOCOL' && (e.responseCode === undefined || e.responseCode < 400))
        return 'did not answer as an SMTP server (EPROTOCOL)';
    if (e.responseCode !== undefined && e.responseCode >= 400 && e.responseCode < 600) {
        const enhanced = /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})\b/.exec(e.response ?? '')?.[1];
        const meaning = REPLY_MEANING[e.responseCode] ?? (e.responseCode < 500 ? 'failed for now' : 'refused');
        return `answered ${e.responseCode}${enhanced ? ` ${enhanced}` : ''}: it ${meaning}`;
    }
    if (e.code === 'EAUTH') return 'refused the username or password (EAUTH)';
    if (e.code === 'ETLS') return 'failed the TLS handshake (ETLS)';
    return `failed (${/^E[A-Z]{1,20}$/.test(e.code ?? '') ? e.code : 'unknown error'})`;
}

const NETWORK = ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'];

export const email: ChannelDefinition<Mail> = {
    type: 'email',
    limits: { perMinute: 30, maxLength: 100_000 },
    check,
    destination: (_ctx, config) => `${setting(config, 'host')}:${setting(config, 'port')}`,
    render(record) {
        const m = messageOf(record);
        return mail(titleOf(m), textOf(m), m.url);
    },
    renderText: (html) => {
        const [first = '', ...rest] = html.split('\n');
        return mail(plain(first), rest.map(plain));
    },
    renderDigest(lines) {
        const d = plainDigest(lines, this.limits.maxLength);
        return { message: mail(`[DIGEST] ${d.heading.replace(/^DIGEST: /, '')}`, d.body.split('\n')), count: d.count };
    },
    async send(ctx, config, message): Promise<SendResult> {
        const host = setting(config, 'host');
        let target: Awaited<ReturnType<typeof resolveHost>>;
        try {
            target = await resolveHost(ctx, host);
        } catch (err) {
            return {
                outcome: 'transient',
                error: `${host} could not be resolved (${(err as { code?: string }).code ?? 'DNS'})`,
                unreachable: true,
            };
        }
        if ('refused' in target) return { outcome: 'permanent', error: `The SMTP server ${target.refused}` };
        const security = setting(config, 'security');
        const username = setting(config, 'username');
        const transport = nodemailer.createTransport({
            host: target.address,
            port: Number(config.port),
            secure: security === 'tls',
            requireTLS: security === 'starttls',
            ignoreTLS: security === 'none',
            tls: { servername: isIP(host) ? undefined : host },
            auth: username ? { user: username, pass: setting(config, 'password') } : undefined,
            connectionTimeout: 10_000,
            greetingTimeout: 10_000,
            socketTimeout: 20_000,
        });
        try {
            await transport.sendMail({
                from: setting(config, 'from'),
                to: recipients(setting(config, 'to')),
                subject: message.subject,
                text: message.text,
                html: message.html,
            });
            return { outcome: 'accepted' };
        } catch (err) {
            const e = err as { code?: string; responseCode?: number; response?: string };
            const said = smtpFailure(e);
            const error = `The SMTP server ${said}`;
            if (e.responseCode === undefined && e.code && NETWORK.includes(e.code))
                return {
                    outcome: 'transient',
                    error: `The SMTP server could not be reached (${e.code})`,
                    unreachable: true,
                };
            // 4xx is "try again later"; 5xx and a refused login are final.
            if (e.responseCode !== undefined && e.responseCode >= 400 && e.responseCode < 500)
                return { outcome: 'transient', error };
            if (e.responseCode === undefined && e.code !== 'EAUTH' && e.code !== 'EENVELOPE')
                return { outcome: 'transient', error };
            return { outcome: 'permanent', error };
        } finally {
            transport.close();
        }
    },
    async probe(ctx, config) {
        const target = await resolveHost(ctx, setting(config, 'host')).catch(() => null);
        if (!target || 'refused' in target) return false;
        return new Promise<boolean>((resolve) => {
            const socket = new Socket();
            const done = (up: boolean) => {
                socket.destroy();
                resolve(up);
            };
            socket.setTimeout(3000, () => done(false));
            socket.once('error', () => done(false));
            socket.connect(Number(config.port), target.address, () => done(true));
        });
    },
};
