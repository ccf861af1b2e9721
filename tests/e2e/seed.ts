import type { ServiceType } from '../../common/service-types';
import type { ChainSim } from '../../tools/chain-sim';
import { ADMIN_PASSWORD, api } from './harness';

/** The company admin the console-facing tests sign in as. */
export const OPS = { username: 'ops', password: 'ops-password-1' };

/** A block check that opens an incident within seconds of the simulated node halting. */
export const BLOCK_PRODUCTION = {
    miss_tolerance: 2,
    miss_tolerance_period_seconds: 5,
    sleep_duration_seconds: 1,
    alert_sleep_duration_minutes: 10,
};

export interface SeedOptions {
    company?: string;
    configuration?: string;
    server?: string;
    /** The simulated node's endpoints to watch, each a service named after its type. */
    services: ServiceType[];
    /** A company admin (OPS) who creates the rest; without one, the console's admin creates it for the company. */
    member?: typeof OPS;
}

/**
 * A company watching the first node of the chain simulator: a configuration, its server and the node's services,
 * made through the API. Monitors are left to `monitor`, for tests that set the scene (a maintenance window, the
 * simulator's state) before the first check runs.
 */
export async function seedValidator(url: string, sim: ChainSim, options: SeedOptions) {
    const node = sim.nodes[0];
    if (!node) throw new Error('no simulated node');
    const root = await api(url, 'admin', ADMIN_PASSWORD);
    // The simulator listens on loopback.
    const company = await root('POST', '/companies', {
        name: options.company ?? 'Operators',
        is_active: true,
        allowed_networks: ['127.0.0.0/8'],
    });
    const member = options.member;
    if (member) {
        await root('POST', '/users', {
            username: member.username,
            is_active: true,
            is_admin: true,
            is_super_admin: false,
            company_id: company.id,
            raw_password: member.password,
        });
    }
    const call = member ? await api(url, member.username, member.password) : root;
    const cfg = await call('POST', '/configurations', {
        name: options.configuration ?? 'Hub mainnet',
        chain: 'cosmoshub',
        is_enabled: true,
        ...(member ? {} : { company_id: company.id }),
    });
    const srv = await call('POST', '/servers', {
        name: options.server ?? 'hub-validator',
        address: 'http://127.0.0.1',
        is_enabled: true,
        configuration_id: cfg.id,
    });
    const addresses: Record<ServiceType, string> = {
        rpc: node.rpcUrl,
        rest: node.restUrl,
        prometheus: node.metricsUrl,
        node_exporter: node.nodeExporterUrl,
    };
    for (const type of options.services) {
        await call('POST', '/services', {
            name: type,
            type,
            address: addresses[type],
            is_enabled: true,
            server_id: srv.id,
        });
    }
    /** Adds a monitor on the server and returns its id. */
    const monitor = async (name: string, type: string, settings: object) =>
        (
            await call('POST', '/monitors', {
                name,
                type,
                is_enabled: true,
                configuration_id: cfg.id,
                server_id: srv.id,
                configuration_object: JSON.stringify(settings),
            })
        ).id;
    return { call, configurationId: cfg.id, serverId: srv.id, monitor };
}
