import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'node-monitor';
const AUDIENCE = 'node-monitor-api';
/** The only algorithm the verifier accepts: `none`, RS256 and friends are refused by construction. */
const ALG = 'HS256';

export interface AccessClaims {
    userId: number;
    tokenVersion: number;
    /** The refresh family (sign-in) the token was issued from: revoking the family ends the token at once. */
    familyId: string;
}

export async function signAccessToken(key: Uint8Array, claims: AccessClaims, ttlSeconds: number) {
    const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
    const token = await new SignJWT({ tv: claims.tokenVersion, fam: claims.familyId, typ: 'access' })
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
        const { typ, tv, fam } = payload;
        if (typ !== 'access' || !Number.isInteger(userId) || typeof tv !== 'number' || typeof fam !== 'string')
            return null;
        return { userId, tokenVersion: tv, familyId: fam };
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
