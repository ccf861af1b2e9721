import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'node-monitor';
const AUDIENCE = 'node-monitor-api';
/** The only algorithm the verifier accepts: `none`, RS256 and friends are refused by construction. */
const ALG = 'HS256';

export interface AccessClaims {
    userId: number;
    tokenVersion: number;
}

export async function signAccessToken(key: Uint8Array, claims: AccessClaims, ttlSeconds: number) {
    const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
    const token = await new SignJWT({ tv: claims.tokenVersion, typ: 'access' })
        .setProtectedHeader({ alg: ALG, typ: 'JWT' })
        .setSubject(String(claims.userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .setJti(randomUUID())
        .sign(key);
    return { token, expiresAt };
}

/** Returns the claims of a valid access token, or null for anything else (expired, tampered, wrong alg or type). */
export async function verifyAccessToken(key: Uint8Array, token: string): Promise<AccessClaims | null> {
    try {
        const { payload } = await jwtVerify(token, key, { algorithms: [ALG], issuer: ISSUER, audience: AUDIENCE });
        const userId = Number(payload.sub);
        if (payload.typ !== 'access' || !Number.isInteger(userId) || typeof payload.tv !== 'number') return null;
        return { userId, tokenVersion: payload.tv };
    } catch {
        return null;
    }
}

export function newRefreshToken(): { token: string; hash: string } {
    const token = randomBytes(32).toString('base64url');
    return { token, hash: hashRefreshToken(token) };
}

export function hashRefreshToken(token: string): string {
    return createHash('sha256').update(token).digest('hex');
}
