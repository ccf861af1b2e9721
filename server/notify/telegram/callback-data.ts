import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The `callback_data` of the Acknowledge and Silence 1 h buttons: what to do, to which incident and monitor (under a
 * SERVER DOWN: to the server, its first incident naming the outage), when the button was made, and an HMAC over
 * that and the chat it was sent to, keyed by a key derived from the app secret. So a press is acted on only with
 * data the console made for that chat. Telegram allows 64 bytes; this takes about 55:
 * `a.<incident uuid, 22 base64url>.<monitor or server id, base36>.<minutes since epoch, base36>.<16 base64url of
 * the HMAC>`.
 */
export type ButtonAction = 'ack' | 'silence' | 'ack-server' | 'silence-server';

export interface ButtonData {
    action: ButtonAction;
    incidentId: string;
    /** The monitor, or the server for the server actions. */
    targetId: number;
    /** When the button was made (ms since epoch, whole minutes). */
    issuedAt: number;
}

const CODES: Record<ButtonAction, string> = { ack: 'a', silence: 's', 'ack-server': 'A', 'silence-server': 'S' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A button older than this is stale: its incident is long over, or the message was forwarded from history. */
export const BUTTON_MAX_AGE_MS = 7 * 24 * 3600_000;

export const actionKey = (appSecret: string): Uint8Array =>
    new Uint8Array(hkdfSync('sha256', appSecret, 'node-monitor', 'telegram-actions', 32));

const mac = (key: Uint8Array, chatId: string, body: string) =>
    createHmac('sha256', key).update(`${chatId}|${body}`).digest('base64url').slice(0, 16);

/** The data for a button, or null when the incident id is not a UUID (it would not fit). */
export function signButton(key: Uint8Array, chatId: string, data: ButtonData): string | null {
    if (!UUID.test(data.incidentId) || !Number.isSafeInteger(data.targetId) || data.targetId < 0) return null;
    const incident = Buffer.from(data.incidentId.replace(/-/g, ''), 'hex').toString('base64url');
    const minutes = Math.floor(data.issuedAt / 60_000).toString(36);
    const body = `${CODES[data.action]}.${incident}.${data.targetId.toString(36)}.${minutes}`;
    return `${body}.${mac(key, chatId, body)}`;
}

export type Verified = { ok: true; data: ButtonData } | { ok: false; why: 'forged' | 'stale' };

/** Checks data pressed in `chatId`: made by this console for that chat, and not older than BUTTON_MAX_AGE_MS. */
export function verifyButton(key: Uint8Array, chatId: string, raw: string, nowMs: number): Verified {
    const parts = raw.split('.');
    if (parts.length !== 5) return { ok: false, why: 'forged' };
    const [code, incident = '', target = '', minutes = '', given = ''] = parts;
    const body = parts.slice(0, 4).join('.');
    const expected = Buffer.from(mac(key, chatId, body));
    if (Buffer.byteLength(given) !== expected.length || !timingSafeEqual(Buffer.from(given), expected))
        return { ok: false, why: 'forged' };
    const action = (Object.keys(CODES) as ButtonAction[]).find((a) => CODES[a] === code);
    const hex = Buffer.from(incident, 'base64url').toString('hex');
    if (!action || hex.length !== 32) return { ok: false, why: 'forged' };
    const issuedAt = Number.parseInt(minutes, 36) * 60_000;
    if (!(nowMs - issuedAt <= BUTTON_MAX_AGE_MS)) return { ok: false, why: 'stale' };
    const incidentId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    return { ok: true, data: { action, incidentId, targetId: Number.parseInt(target, 36), issuedAt } };
}
