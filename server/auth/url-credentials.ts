import { badRequest } from '../errors';
import { decryptSecret, encryptSecret } from './secrets';

/**
 * Credentials in target URLs (`http://user:pass@host`, security item 5). The address column keeps the URL with
 * its password masked, so every read of it (whatever the route, whatever the role) is masked; the real URL is
 * kept encrypted beside it and read only by the egress paths (engine, service test, server metrics).
 */

/** The same mask as a bot token's, so a form sends it back the same way. */
export const PASSWORD_MASK = '••••';

// Scheme, then the authority up to its last '@' (the userinfo), as the WHATWG URL parser splits it.
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i;

interface Parts {
    prefix: string;
    user: string;
    password: string;
    /** Host and everything after it. */
    rest: string;
}

/**
 * The address as the URL parser reads it when its spelling hides the userinfo from USERINFO: `http:user:pass@host`
 * and `http:\\user:pass@host` reach `host` with those credentials just as `http://user:pass@host` does.
 */
function canonical(address: string): string {
    try {
        const u = new URL(address);
        return u.password ? u.href : address;
    } catch {
        return address;
    }
}

function split(raw: string): Parts | null {
    const m = USERINFO.exec(raw) ?? USERINFO.exec(canonical(raw));
    if (!m) return null;
    const address = m.input;
    const userinfo = m[2] ?? '';
    const colon = userinfo.indexOf(':');
    if (colon < 0) return null;
    return {
        prefix: m[1] ?? '',
        user: userinfo.slice(0, colon),
        password: userinfo.slice(colon + 1),
        rest: address.slice(m[0].length),
    };
}

function isMask(password: string): boolean {
    let decoded = password;
    try {
        decoded = decodeURIComponent(password);
    } catch {
        // Not percent-encoded: judged as typed.
    }
    return decoded.startsWith(PASSWORD_MASK);
}

/** Where a URL points, credentials aside: a kept password is reused only for the same scheme, host and port. */
function origin(parts: Parts): string {
    return `${parts.prefix}${parts.rest.split(/[/?#]/)[0]}`.toLowerCase();
}

/** The address as every reader sees it: its password, if any, masked. */
export function maskAddress(address: string): string {
    const p = split(address);
    return p?.password ? `${p.prefix}${p.user}:${PASSWORD_MASK}@${p.rest}` : address;
}

export function hasPassword(address: string): boolean {
    return Boolean(split(address)?.password);
}

/** The scheme and host name without the port: a service on another port of its server's host. */
function host(parts: Parts): string {
    try {
        const u = new URL(`${parts.prefix}${parts.rest}`);
        return `${u.protocol}//${u.hostname}`.toLowerCase();
    } catch {
        return '';
    }
}

/**
 * What to store for a submitted address: `address` (masked) for the column every read returns, `secret` (the
 * whole URL encrypted) or null when it holds no password. A password sent back masked keeps the stored one, as
 * long as the URL still points at the same origin (else the stored password would go to a new host). A service's
 * address starts as its server's, masked password included: `serverSecret` lends the server's password to the
 * same user at the same scheme and host, on any port.
 */
export function sealAddress(
    key: Uint8Array,
    submitted: string,
    storedSecret: string | null,
    field = 'address',
    serverSecret: string | null = null
): { address: string; secret: string | null } {
    const p = split(submitted);
    if (!p?.password) return { address: submitted, secret: null };
    let full = submitted;
    if (isMask(p.password)) {
        const before = storedSecret ? split(openSecret(key, storedSecret)) : null;
        const server = serverSecret ? split(openSecret(key, serverSecret)) : null;
        const password =
            before?.password && origin(before) === origin(p)
                ? before.password
                : server?.password && server.user === p.user && host(server) === host(p) && host(p) !== ''
                  ? server.password
                  : null;
        if (!password) {
            throw badRequest({ [field]: 'Enter the password again: no password is stored for this address' });
        }
        full = `${p.prefix}${p.user}:${password}@${p.rest}`;
    }
    return { address: maskAddress(full), secret: encryptSecret(key, full) };
}

function openSecret(key: Uint8Array, secret: string): string {
    try {
        return decryptSecret(key, secret);
    } catch {
        return '';
    }
}

/** The real URL for the egress client: the decrypted secret when there is one, else the stored address. */
export function openAddress(key: Uint8Array, address: string, secret: string | null | undefined): string {
    if (!secret) return address;
    const plain = openSecret(key, secret);
    if (!plain)
        throw new Error('The address password cannot be decrypted: was APP_SECRET or DATA_DIR/secret.key changed?');
    return plain;
}
