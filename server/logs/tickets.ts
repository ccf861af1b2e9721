import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AccessClaims } from '../auth/tokens';

/** How long a ticket can wait for its socket: long enough for one connect, too short to be worth stealing. */
const TICKET_TTL_MS = 30_000;
const MAX_TICKETS = 1_000;

/**
 * Single-use tickets for the log socket. A browser cannot send headers on a WebSocket, and a token in the URL
 * ends up in proxy logs; a ticket in the URL is worth nothing once used or 30 s old.
 */
export interface TicketBook {
    issue(claims: AccessClaims): Promise<{ ticket: string; expiresAt: string }>;
    /** The claims a ticket was issued for, once: a ticket is gone after its first use, valid or not. */
    redeem(ticket: string | undefined): Promise<AccessClaims | null>;
}

export class SocketTickets implements TicketBook {
    private readonly open = new Map<string, { claims: AccessClaims; expiresAt: number }>();

    async issue(claims: AccessClaims): Promise<{ ticket: string; expiresAt: string }> {
        const now = Date.now();
        for (const [t, v] of this.open) if (v.expiresAt <= now) this.open.delete(t);
        // Oldest first: a flood of unused tickets pushes out the oldest, never refuses a new one.
        while (this.open.size >= MAX_TICKETS) this.open.delete(this.open.keys().next().value ?? '');
        const ticket = randomBytes(32).toString('base64url');
        this.open.set(ticket, { claims, expiresAt: now + TICKET_TTL_MS });
        return { ticket, expiresAt: new Date(now + TICKET_TTL_MS).toISOString() };
    }

    async redeem(ticket: string | undefined): Promise<AccessClaims | null> {
        if (!ticket) return null;
        const hit = this.open.get(ticket);
        this.open.delete(ticket);
        return hit && hit.expiresAt > Date.now() ? hit.claims : null;
    }
}

/**
 * The cluster profile's tickets, in Redis: one issued by any `web` process opens the socket on any other, once.
 * Kept under the ticket's hash, so Redis holds nothing a reader could connect with.
 */
export class SharedSocketTickets implements TicketBook {
    constructor(private readonly redis: Redis) {}

    async issue(claims: AccessClaims): Promise<{ ticket: string; expiresAt: string }> {
        const ticket = randomBytes(32).toString('base64url');
        await this.redis.set(keyOf(ticket), JSON.stringify(claims), 'PX', TICKET_TTL_MS);
        return { ticket, expiresAt: new Date(Date.now() + TICKET_TTL_MS).toISOString() };
    }

    async redeem(ticket: string | undefined): Promise<AccessClaims | null> {
        if (!ticket) return null;
        const claims = await this.redis.getdel(keyOf(ticket));
        return claims ? (JSON.parse(claims) as AccessClaims) : null;
    }
}

const keyOf = (ticket: string) => `node-monitor:log-ticket:${createHash('sha256').update(ticket).digest('hex')}`;
