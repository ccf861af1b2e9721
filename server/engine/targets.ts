import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { MONITOR_CATALOGUE, parseMonitorSettings } from '../../common/monitor-types';
import type { ChainEndpoint } from '../../common/chain-endpoints';
import type { MonitorType } from '../../common/monitor-types';
import type { ServiceType } from '../../common/service-types';
import { openAddress } from '../auth/url-credentials';
import type { Db } from '../db/client';
import type { ChainSource } from './chain-sources';
import { companies, configurations, monitors, servers, services } from '../db/schema';

const PAGE = 1000;
const YIELD_EVERY = 500;
const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

interface Row {
    m: {
        id: number;
        name: string;
        type: MonitorType;
        configurationObject: string;
        serviceId: number | null;
        addressSecret: string | null;
        locations: string[] | null;
        confirm: number;
    };
    c: { id: number; name: string; chain: string; companyId: number; chainEndpoints: ChainEndpoint[] };
    s: { id: number; name: string; address: string } | null;
    q: EngineQuota;
}

/** The company's share of the engine: its concurrent-check slots and minimum interval. */
export interface EngineQuota {
    maxConcurrentChecks: number;
    minIntervalSeconds: number;
}

/** Everything the engine needs to run one monitor, read in one pass over the database. */
export interface MonitorTarget {
    id: number;
    name: string;
    type: MonitorType;
    settings: Record<string, unknown>;
    /** Changes whenever anything that affects how the monitor runs changes; a new key reschedules it. */
    key: string;
    configuration: { id: number; name: string; chain: string; companyId: number };
    server: { id: number; name: string; address: string } | null;
    services: { type: ServiceType; address: string }[];
    /** The company's engine quota; absent, the engine's defaults apply. */
    quota?: EngineQuota;
    /** The type of the enabled service the monitor was created with, if any. */
    serviceType?: ServiceType | null;
    /** A validator-duty monitor's ways into its chain: every server of its configuration, then its chain endpoints. */
    sources?: ChainSource[];
    /** The probe locations that check it (null or absent: every live one), and how many must see a failure. */
    locations?: string[] | null;
    confirm?: number;
}

/**
 * Enabled monitors of enabled configurations, on an enabled server when they have one. Addresses come out real
 * (a password decrypted with `key`), for the egress client only.
 */
export async function loadTargets(
    db: Db,
    key: Uint8Array
): Promise<{ targets: MonitorTarget[]; invalid: { id: number; error: string }[] }> {
    // Only the columns a target uses, a page at a time: PGlite runs queries and decodes results on the event loop,
    // and one 10,000-row read of whole rows blocked it for about 1 s, delaying every check due meanwhile.
    const rows: Row[] = [];
    for (let after = 0; ; ) {
        const page = await db
            .select({
                m: {
                    id: monitors.id,
                    name: monitors.name,
                    type: monitors.type,
                    configurationObject: monitors.configurationObject,
                    serviceId: monitors.serviceId,
                    addressSecret: monitors.addressSecret,
                    locations: monitors.locations,
                    confirm: monitors.confirm,
                },
                c: {
                    id: configurations.id,
                    name: configurations.name,
                    chain: configurations.chain,
                    companyId: configurations.companyId,
                    chainEndpoints: configurations.chainEndpoints,
                },
                s: { id: servers.id, name: servers.name, address: servers.address },
                q: {
                    maxConcurrentChecks: companies.maxConcurrentChecks,
                    minIntervalSeconds: companies.minIntervalSeconds,
                },
            })
            .from(monitors)
            .innerJoin(configurations, eq(configurations.id, monitors.configurationId))
            .innerJoin(companies, eq(companies.id, configurations.companyId))
            .leftJoin(servers, eq(servers.id, monitors.serverId))
            .where(
                and(
                    gt(monitors.id, after),
                    eq(monitors.isEnabled, true),
                    eq(configurations.isEnabled, true),
                    or(isNull(monitors.serverId), eq(servers.isEnabled, true))
                )
            )
            .orderBy(asc(monitors.id))
            .limit(PAGE);
        rows.push(...page);
        const last = page.at(-1);
        if (page.length < PAGE || !last) break;
        after = last.m.id;
        await yieldToLoop();
    }
    // Duty monitors read through every enabled server of their configuration, so those servers' services are read too.
    const dutyConfigurations = [
        ...new Set(rows.filter((r) => MONITOR_CATALOGUE[r.m.type].role === 'duty').map((r) => r.c.id)),
    ];
    const chainServers = dutyConfigurations.length
        ? await db
              .select({ id: servers.id, name: servers.name, configurationId: servers.configurationId })
              .from(servers)
              .where(and(inArray(servers.configurationId, dutyConfigurations), eq(servers.isEnabled, true)))
              .orderBy(asc(servers.id))
        : [];
    const serverIds = [
        ...new Set([
            ...rows.map((r) => r.s?.id).filter((id): id is number => id !== undefined),
            ...chainServers.map((s) => s.id),
        ]),
    ];
    const svcRows = serverIds.length
        ? await db
              .select({
                  id: services.id,
                  serverId: services.serverId,
                  type: services.type,
                  address: services.address,
                  secret: services.addressSecret,
              })
              .from(services)
              .where(and(inArray(services.serverId, serverIds), eq(services.isEnabled, true)))
        : [];
    const byServer = new Map<number, { type: ServiceType; address: string }[]>();
    const typeOf = new Map(svcRows.map((s) => [s.id, s.type]));
    for (const s of svcRows) {
        const list = byServer.get(s.serverId) ?? [];
        let address: string;
        try {
            address = openAddress(key, s.address, s.secret);
        } catch {
            continue; // an undecryptable service reads as missing; the check names the missing service type
        }
        list.push({ type: s.type, address });
        byServer.set(s.serverId, list);
    }
    const serversOf = new Map<number, typeof chainServers>();
    for (const srv of chainServers) {
        const list = serversOf.get(srv.configurationId) ?? [];
        list.push(srv);
        serversOf.set(srv.configurationId, list);
    }
    const sourcesOf = new Map<number, ChainSource[]>();
    const sourcesFor = (c: Row['c']): ChainSource[] => {
        const known = sourcesOf.get(c.id);
        if (known) return known;
        const list: ChainSource[] = [];
        for (const srv of serversOf.get(c.id) ?? []) {
            const svc = byServer.get(srv.id) ?? [];
            const rpc = svc.find((v) => v.type === 'rpc')?.address ?? null;
            const rest = svc.find((v) => v.type === 'rest')?.address ?? null;
            if (rpc || rest) list.push({ name: srv.name, serverId: srv.id, rpc, rest });
        }
        for (const e of c.chainEndpoints) {
            const name = endpointName(e.address);
            list.push({
                name,
                serverId: null,
                rpc: e.type === 'rpc' ? e.address : null,
                rest: e.type === 'rest' ? e.address : null,
            });
        }
        sourcesOf.set(c.id, list);
        return list;
    };
    const targets: MonitorTarget[] = [];
    const invalid: { id: number; error: string }[] = [];
    for (const [i, { m, c, s, q }] of rows.entries()) {
        // Parsing and keying thousands of monitors is CPU work: let due checks start in between.
        if (i > 0 && i % YIELD_EVERY === 0) await yieldToLoop();
        const parsed = parseMonitorSettings(m.type, m.configurationObject);
        if (!parsed.ok) {
            invalid.push({
                id: m.id,
                error: `Invalid settings: ${Object.entries(parsed.errors)
                    .map(([k, v]) => `${k}: ${v}`)
                    .join('; ')}`,
            });
            continue;
        }
        if (m.addressSecret) {
            try {
                parsed.settings.address = openAddress(key, String(parsed.settings.address ?? ''), m.addressSecret);
            } catch (err) {
                invalid.push({ id: m.id, error: (err as Error).message });
                continue;
            }
        }
        const svc = s ? (byServer.get(s.id) ?? []) : [];
        const target: Omit<MonitorTarget, 'key'> = {
            id: m.id,
            name: m.name,
            type: m.type,
            settings: parsed.settings,
            configuration: { id: c.id, name: c.name, chain: c.chain, companyId: c.companyId },
            server: s ? { id: s.id, name: s.name, address: s.address } : null,
            services: svc,
            quota: { maxConcurrentChecks: q.maxConcurrentChecks, minIntervalSeconds: q.minIntervalSeconds },
            serviceType: m.serviceId === null ? null : (typeOf.get(m.serviceId) ?? null),
            ...(MONITOR_CATALOGUE[m.type].role === 'duty' ? { sources: sourcesFor(c) } : {}),
            locations: m.locations,
            confirm: m.confirm,
        };
        targets.push({ ...target, key: JSON.stringify(target) });
    }
    return { targets, invalid };
}

/** A chain endpoint as messages name it: its host (and port), without path or query, which may hold a key. */
function endpointName(address: string): string {
    try {
        return new URL(address).host;
    } catch {
        return address;
    }
}

/** Row counts and latest update times of everything a target is built from; equal fingerprints, equal targets. */
export async function targetsFingerprint(db: Db): Promise<string> {
    const result = await db.execute(sql`
        select (select count(*) || ':' || coalesce(max(updated_at)::text, '') from monitors) as m,
               (select count(*) || ':' || coalesce(max(updated_at)::text, '') from servers) as s,
               (select count(*) || ':' || coalesce(max(updated_at)::text, '') from services) as v,
               (select count(*) || ':' || coalesce(max(updated_at)::text, '') from configurations) as c,
               (select count(*) || ':' || coalesce(max(updated_at)::text, '') from companies) as q`);
    return JSON.stringify((result as unknown as { rows: unknown[] }).rows[0]);
}
