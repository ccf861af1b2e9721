import type { FastifyInstance } from 'fastify';
import type { MonitorType } from '../../common/monitor-types';
import type { ServiceType } from '../../common/service-types';
import { encryptSecret } from '../../server/auth/secrets';
import {
    configurationChannels,
    configurations,
    monitors,
    notificationChannels,
    servers,
    services,
} from '../../server/db/schema';

/** Direct database seeding for engine tests, which are about checks and alerts rather than the API. */
export async function seedNode(
    app: FastifyInstance,
    opts: {
        companyId: number;
        chain?: string;
        serverAddress?: string;
        services: { type: ServiceType; address: string }[];
        monitor: { type: MonitorType; name?: string; settings: Record<string, unknown> };
        telegram?: { chatId: string; token?: string };
    }
) {
    const db = app.ctx.db;
    const [cfg] = await db
        .insert(configurations)
        .values({ companyId: opts.companyId, name: 'Sim mainnet', chain: opts.chain ?? 'cosmoshub' })
        .returning();
    if (!cfg) throw new Error('no configuration');
    const [srv] = await db
        .insert(servers)
        .values({ configurationId: cfg.id, name: 'validator-1', address: opts.serverAddress ?? 'http://127.0.0.1' })
        .returning();
    if (!srv) throw new Error('no server');
    for (const s of opts.services)
        await db.insert(services).values({ serverId: srv.id, name: s.type, type: s.type, address: s.address });
    const [mon] = await db
        .insert(monitors)
        .values({
            configurationId: cfg.id,
            serverId: srv.id,
            name: opts.monitor.name ?? opts.monitor.type,
            type: opts.monitor.type,
            configurationObject: JSON.stringify(opts.monitor.settings),
        })
        .returning();
    if (!mon) throw new Error('no monitor');
    let channelId: number | null = null;
    if (opts.telegram) {
        const token = encryptSecret(app.ctx.keys.secretsAtRest, opts.telegram.token ?? '123456:TEST-token');
        const [ch] = await db
            .insert(notificationChannels)
            .values({
                companyId: opts.companyId,
                name: 'Ops chat',
                type: 'telegram',
                configurationObject: JSON.stringify({ bot_token: token, chat_id: opts.telegram.chatId }),
            })
            .returning();
        if (!ch) throw new Error('no channel');
        channelId = ch.id;
        await db.insert(configurationChannels).values({ configurationId: cfg.id, notificationChannelId: ch.id });
    }
    app.ctx.events.emit({ name: 'MONITOR_CREATED', monitorId: mon.id });
    return { configurationId: cfg.id, serverId: srv.id, monitorId: mon.id, channelId };
}

export async function waitFor<T>(
    what: string,
    probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
    timeoutMs = 20_000
): Promise<T> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
        const value = await probe();
        if (value) return value;
        if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 100));
    }
}

/** Beside a validator's duty monitor, on its server: its active-set monitor and a disk monitor, as rows to insert. */
export const activeSetAndDisks = (duty: { configurationId: number; serverId: number }, valoper: string) => [
    {
        configurationId: duty.configurationId,
        serverId: duty.serverId,
        name: 'Active set',
        type: 'validatorOutOfActiveSet' as const,
        configurationObject: JSON.stringify({ valoper_address: valoper, sleep_duration_seconds: 1 }),
    },
    {
        configurationId: duty.configurationId,
        serverId: duty.serverId,
        name: 'Disks',
        type: 'nodeExporterDiskSpace' as const,
        configurationObject: JSON.stringify({ threshold: 99, check_interval_seconds: 5 }),
    },
];
