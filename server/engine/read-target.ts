import type { ChainDirectory } from '../chains/directory';
import type { EgressPolicies } from '../clients/egress-policies';
import type { SourceSeen, SourceUsed } from './chain-sources';
import type { ReadThread, SourcedReading } from './readers';
import type { MonitorTarget } from './targets';
import { errorText } from './texts';
import type { ReadResult } from './verdict';

export interface TargetReadPorts {
    reads: ReadThread;
    egress: Pick<EgressPolicies, 'forCompany'>;
    chains: Pick<ChainDirectory, 'prefixFor'>;
    /** Aborted when the engine stops: every read in flight ends with it. */
    stopping: AbortSignal;
}

export interface TargetRead {
    reading: ReadResult<unknown>;
    /** The chain source a duty check read, or null for a read of the monitor's own node. */
    source: SourceUsed | null;
    /** Every source of the chain as this read saw them (duty checks only). */
    seen: SourceSeen[] | null;
}

/**
 * Reads the monitor's node, or for a duty monitor a fresh source of its chain and names the source used, within
 * `timeoutMs` and the company's allowed networks. Never throws: a failed read is a reading with its error.
 */
export async function readTarget(
    ports: TargetReadPorts,
    target: MonitorTarget,
    timeoutMs: number
): Promise<TargetRead> {
    // One controller per check, released in `finally`: AbortSignal.any on the engine's long-lived signal keeps
    // every combined signal reachable from it on Node 20.
    const abort = new AbortController();
    const stop = () => abort.abort(new Error('The engine is stopping'));
    ports.stopping.addEventListener('abort', stop, { once: true });
    const abortTimer = setTimeout(() => abort.abort(new Error('timeout')), timeoutMs);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
            () => reject(new Error(`The check did not finish within ${Math.round(timeoutMs / 1000)} s`)),
            timeoutMs + 500
        );
    });
    try {
        // Every request of the check is made on behalf of the monitor's company, within its allowed networks.
        const policy = await ports.egress.forCompany(target.configuration.companyId);
        const value = await Promise.race([
            ports.reads.read(
                {
                    monitor: {
                        id: target.id,
                        name: target.name,
                        type: target.type,
                        settings: target.settings,
                        serviceType: target.serviceType,
                    },
                    server: target.server,
                    services: target.services,
                    chain: {
                        name: target.configuration.chain,
                        bech32Prefix: ports.chains.prefixFor(target.configuration.chain),
                    },
                    policy,
                    sources: target.sources,
                },
                abort.signal
            ),
            deadline,
        ]);
        if (target.sources?.length) {
            const { sourced, seen, value: measured } = value as SourcedReading;
            return { reading: { ok: true, value: measured }, source: sourced, seen };
        }
        return { reading: { ok: true, value }, source: null, seen: null };
    } catch (err) {
        return { reading: { ok: false, error: errorText(err) }, source: null, seen: null };
    } finally {
        clearTimeout(timer);
        clearTimeout(abortTimer);
        ports.stopping.removeEventListener('abort', stop);
    }
}
