import type { Configuration, Monitor, Server } from '../../../common/entities';
import { groupHealth } from '../../../common/health';
import { type FakeHandler, pagedReply, superAdmin } from '../fakeApi';

export const admin = { ...superAdmin, id: 2, username: 'ops', is_super_admin: false };
export const plainUser = { ...superAdmin, id: 3, username: 'viewer', is_admin: false, is_super_admin: false };

export const monitor = (overrides: Partial<Monitor> = {}): Monitor => ({
    id: 1,
    name: 'rpc check',
    type: 'urlCheck',
    is_enabled: true,
    configuration_id: 1,
    server_id: 10,
    server: { id: 10, name: 'node-1', address: 'http://10.0.0.1' },
    configuration_object: '{"address":"http://10.0.0.1:26657","allowed_attempts":3}',
    status: true,
    last_error: null,
    last_check: '2024-05-01T10:00:00.000Z',
    locations: null,
    confirm: 1,
    ...overrides,
});

export const server = (overrides: Partial<Server> = {}): Server => ({
    id: 10,
    name: 'node-1',
    address: 'http://10.0.0.1',
    is_enabled: true,
    configuration_id: 1,
    monitors: [],
    createdAt: '2024-04-01T10:00:00.000Z',
    updatedAt: '2024-04-02T10:00:00.000Z',
    ...overrides,
});

export const configuration = (overrides: Partial<Configuration> = {}): Configuration => ({
    id: 1,
    name: 'Osmosis main',
    chain: 'osmosis',
    is_enabled: true,
    company: { id: 1, name: 'Acme' },
    company_id: 1,
    chain_endpoints: [],
    servers: [server()],
    monitors: [monitor()],
    createdAt: '2024-04-01T10:00:00.000Z',
    updatedAt: '2024-04-02T10:00:00.000Z',
    ...overrides,
});

export const chains = [
    { name: 'osmosis', pretty_name: 'Osmosis', chain_id: 'osmosis-1', bech32_prefix: 'osmo', network_type: 'mainnet' },
    { name: 'cosmoshub', pretty_name: 'Cosmos Hub', chain_id: 'cosmoshub-4', bech32_prefix: 'cosmos' },
];

/** `GET /api/configurations` as the server answers it: its filters (docs/spec.md §2), sort and page over the given rows. */
export const configurationsApi =
    (rows: () => Configuration[]): FakeHandler =>
    (request) =>
        pagedReply('configurations', rows(), request, {
            q: (c, q) => [c.name, c.chain].some((text) => text.toLowerCase().includes(String(q).trim().toLowerCase())),
            company_id: (c, id) => c.company_id === Number(id),
            is_enabled: (c, enabled) => c.is_enabled === (enabled === true || enabled === 'true'),
            status: (c, status) => groupHealth(c.monitors ?? []).health === status,
        });
