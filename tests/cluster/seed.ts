import { deriveKey } from '../../server/auth/keys';
import { encryptSecret } from '../../server/auth/secrets';
import {
    companies,
    configurationChannels,
    configurations,
    notificationChannels,
    servers,
    services,
} from '../../server/db/schema';
import type { ClusterEnv } from './cluster-env';

// The rows the cluster files start from, written straight to their database before (or while) the consoles run.

/** A company whose monitors may read loopback addresses (and `networks` besides). */
export async function seedCompany(cluster: ClusterEnv, name: string, networks: string[] = []): Promise<number> {
    const [company] = await cluster.db
        .insert(companies)
        .values({ name, allowedNetworks: [...networks, '127.0.0.0/8'] })
        .returning();
    return company?.id ?? 0;
}

export async function seedConfiguration(
    cluster: ClusterEnv,
    companyId: number,
    name = 'Sim mainnet',
    chain = 'cosmoshub'
): Promise<number> {
    const [cfg] = await cluster.db.insert(configurations).values({ companyId, name, chain }).returning();
    return cfg?.id ?? 0;
}

/**
 * A company on loopback networks with one configuration, `Sim mainnet` of cosmoshub, and a Telegram channel told of
 * its alerts when `channel` is given: where most cluster files begin.
 */
export async function seedTenant(
    cluster: ClusterEnv,
    company: string,
    channel?: { token: string; chat: string }
): Promise<{ companyId: number; configurationId: number }> {
    const companyId = await seedCompany(cluster, company);
    const configurationId = await seedConfiguration(cluster, companyId);
    if (channel) await seedTelegramChannel(cluster, { companyId, configurationIds: [configurationId], ...channel });
    return { companyId, configurationId };
}

/** The rpc service of a simulated node. */
export const rpcService = (address = '') => ({ name: 'rpc', type: 'rpc' as const, address });

/** A server of the configuration (`validator-1` on loopback unless told) with one service, e.g. a node's rpc. */
export async function seedServer(
    cluster: ClusterEnv,
    configurationId: number,
    service: Omit<typeof services.$inferInsert, 'serverId'>,
    { name = 'validator-1', address = 'http://127.0.0.1' } = {}
): Promise<number> {
    const [srv] = await cluster.db.insert(servers).values({ configurationId, name, address }).returning();
    const serverId = srv?.id ?? 0;
    await cluster.db.insert(services).values({ ...service, serverId });
    return serverId;
}

/**
 * A Telegram channel of the company, its bot token encrypted as the consoles read it (with their APP_SECRET), told
 * of the alerts of the configurations named.
 */
export async function seedTelegramChannel(
    cluster: ClusterEnv,
    to: { companyId: number; token: string; chat: string; configurationIds?: number[]; name?: string }
): Promise<number> {
    const token = encryptSecret(deriveKey(cluster.appSecret, 'secrets-at-rest'), to.token);
    const [channel] = await cluster.db
        .insert(notificationChannels)
        .values({
            companyId: to.companyId,
            name: to.name ?? 'Ops chat',
            type: 'telegram',
            configurationObject: JSON.stringify({ bot_token: token, chat_id: to.chat }),
        })
        .returning();
    const channelId = channel?.id ?? 0;
    for (const configurationId of to.configurationIds ?? [])
        await cluster.db.insert(configurationChannels).values({ configurationId, notificationChannelId: channelId });
    return channelId;
}

/** A blockCheck monitor's row on a server of a configuration, to insert as it is or with more columns. */
export function blockCheck(on: { configurationId: number; serverId: number }, name: string, settings: string) {
    return { ...on, name, type: 'blockCheck' as const, configurationObject: settings };
}

/** A blockCheck's settings: checked every `sleep` seconds, failing after `missTolerance` misses in `periodSeconds`. */
export function blockCheckSettings(sleep: number, missTolerance = 3, periodSeconds = 30): string {
    return JSON.stringify({
        miss_tolerance: missTolerance,
        miss_tolerance_period_seconds: periodSeconds,
        sleep_duration_seconds: sleep,
        alert_sleep_duration_minutes: 60,
    });
}
