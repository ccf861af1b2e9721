import type { FastifyBaseLogger } from 'fastify';
import type { Chain } from '../../common/entities';
import type { HttpClient } from '../clients/http';
import bundled from './bundled-chains.json' with { type: 'json' };

export type Network = 'mainnet' | 'testnet';

const TTL_MS = 60 * 60_000;
/** After a failed fetch, serve the bundled list for a while instead of retrying on every request. */
const RETRY_AFTER_FAILURE_MS = 60_000;

interface Cached {
    chains: Chain[];
    source: 'directory' | 'bundled';
    until: number;
}

function parseDirectory(body: unknown): Chain[] {
    const list = (body as { chains?: unknown })?.chains;
    if (!Array.isArray(list)) throw new Error('the chain directory answered without a chains list');
    const chains: Chain[] = [];
    for (const c of list as Record<string, unknown>[]) {
        const name = c.chain_name ?? c.name;
        if (typeof name !== 'string' || typeof c.bech32_prefix !== 'string') continue;
        chains.push({
            name,
            pretty_name: typeof c.pretty_name === 'string' ? c.pretty_name : name,
            chain_id: typeof c.chain_id === 'string' ? c.chain_id : '',
            bech32_prefix: c.bech32_prefix,
            network_type: typeof c.network_type === 'string' ? c.network_type : undefined,
        });
    }
    if (chains.length === 0) throw new Error('the chain directory answered an empty list');
    return chains.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The public chain directory (cosmos.directory), cached, with the bundled snapshot as the answer whenever the
 * directory cannot be reached, so an offline install still offers chain names and bech32 prefixes.
 */
export class ChainDirectory {
    private readonly cache = new Map<Network, Cached>();
    private readonly inflight = new Map<Network, Promise<Cached>>();

    constructor(
        private readonly http: HttpClient,
        private readonly urls: Record<Network, string>,
        private readonly log: FastifyBaseLogger
    ) {}

    async list(network: Network): Promise<{ chains: Chain[]; source: 'directory' | 'bundled' }> {
        const hit = this.cache.get(network);
        if (hit && hit.until > Date.now()) return hit;
        let pending = this.inflight.get(network);
        if (!pending) {
            pending = this.fetch(network).finally(() => this.inflight.delete(network));
            this.inflight.set(network, pending);
        }
        return pending;
    }

    /** The bech32 prefix of a chain by name or chain id, from the last directory answer or the bundled list. */
    prefixFor(chain: string): string | null {
        const needle = chain.trim().toLowerCase();
        const lists = [
            this.cache.get('mainnet')?.chains,
            this.cache.get('testnet')?.chains,
            bundled.mainnet as Chain[],
            bundled.testnet as Chain[],
        ];
        for (const chains of lists) {
            const found = chains?.find((c) => c.name.toLowerCase() === needle || c.chain_id.toLowerCase() === needle);
            if (found) return found.bech32_prefix;
        }
        return null;
    }

    private async fetch(network: Network): Promise<Cached> {
        try {
            const chains = parseDirectory(
                await this.http.getJson(`${this.urls[network]}/`, { timeoutMs: 8000, maxBodyBytes: 32 * 1024 * 1024 })
            );
            const entry: Cached = { chains, source: 'directory', until: Date.now() + TTL_MS };
            this.cache.set(network, entry);
            return entry;
        } catch (err) {
            this.log.warn(
                `Chain directory (${network}) unavailable, using the bundled chain list: ${(err as Error).message}`
            );
            const entry: Cached = {
                chains: bundled[network] as Chain[],
                source: 'bundled',
                until: Date.now() + RETRY_AFTER_FAILURE_MS,
            };
            this.cache.set(network, entry);
            return entry;
        }
    }
}
