import { and, eq, isNull, like } from 'drizzle-orm';
import { encryptSecret } from '../auth/secrets';
import { hasPassword, sealAddress } from '../auth/url-credentials';
import type { Db } from './client';
import { monitors, notificationChannels, servers, services } from './schema';

/**
 * Encrypts URL passwords saved in clear (service, server and urlCheck addresses, before they were sealed): each is
 * moved into `address_secret` and masked in place. Runs at start; rows already sealed are not read again.
 */
export async function sealStoredCredentials(db: Db, key: Uint8Array): Promise<number> {
    let sealed = 0;
    const svc = await db
        .select({ id: services.id, address: services.address })
        .from(services)
        .where(and(isNull(services.addressSecret), like(services.address, '%@%')));
    for (const row of svc) {
        if (!hasPassword(row.address)) continue;
        const s = sealAddress(key, row.address, null);
        await db.update(services).set({ address: s.address, addressSecret: s.secret }).where(eq(services.id, row.id));
        sealed++;
    }
    const srvs = await db
        .select({ id: servers.id, address: servers.address })
        .from(servers)
        .where(and(isNull(servers.addressSecret), like(servers.address, '%@%')));
    for (const row of srvs) {
        if (!hasPassword(row.address)) continue;
        const s = sealAddress(key, row.address, null);
        await db.update(servers).set({ address: s.address, addressSecret: s.secret }).where(eq(servers.id, row.id));
        sealed++;
    }
    const mons = await db
        .select({ id: monitors.id, settings: monitors.configurationObject })
        .from(monitors)
        .where(and(isNull(monitors.addressSecret), like(monitors.configurationObject, '%@%')));
    for (const row of mons) {
        let settings: Record<string, unknown>;
        try {
            settings = JSON.parse(row.settings) as Record<string, unknown>;
        } catch {
            continue;
        }
        if (typeof settings.address !== 'string' || !hasPassword(settings.address)) continue;
        const s = sealAddress(key, settings.address, null);
        await db
            .update(monitors)
            .set({ configurationObject: JSON.stringify({ ...settings, address: s.address }), addressSecret: s.secret })
            .where(eq(monitors.id, row.id));
        sealed++;
    }
    return sealed + (await sealWebhookHeaders(db, key));
}

/** Webhook header values saved in clear before they counted as secrets are encrypted in place. */
async function sealWebhookHeaders(db: Db, key: Uint8Array): Promise<number> {
    let sealed = 0;
    const rows = await db
        .select({ id: notificationChannels.id, settings: notificationChannels.configurationObject })
        .from(notificationChannels)
        .where(
            and(eq(notificationChannels.type, 'webhook'), like(notificationChannels.configurationObject, '%"headers"%'))
        );
    for (const row of rows) {
        let settings: Record<string, unknown>;
        try {
            settings = JSON.parse(row.settings) as Record<string, unknown>;
        } catch {
            continue;
        }
        const headers = settings.headers;
        if (typeof headers !== 'object' || headers === null) continue;
        const entries = Object.entries(headers as Record<string, unknown>);
        if (entries.every(([, v]) => typeof v !== 'string' || v.startsWith('enc:v1:'))) continue;
        const sealedHeaders = Object.fromEntries(
            entries.map(([n, v]) => [n, typeof v === 'string' && !v.startsWith('enc:v1:') ? encryptSecret(key, v) : v])
        );
        await db
            .update(notificationChannels)
            .set({ configurationObject: JSON.stringify({ ...settings, headers: sealedHeaders }) })
            .where(eq(notificationChannels.id, row.id));
        sealed++;
    }
    return sealed;
}
