import type { ChainDirectory } from '../chains/directory';
import type { EgressPolicies } from '../clients/egress-policies';
import type { SourceSeen, SourceUsed } from './chain-sources';
import type { ReadRequest, Reader, ReadThread, SourcedReading } from './readers';
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
 * What a read of the monitor needs, as plain data (it crosses to the read thread, or to a probe through its queue):
 * the type and settings, the addresses, the chain, and the company's allowed networks every request keeps within.
 */
export async function readRequest(ports: Omit<TargetReadPorts, 'reads'>, target: MonitorTarget): Promise<ReadRequest> {
    // Every request of the check is made on behalf of the monitor's company, within its allowed networks.
    const policy = await ports.egress.forCompany(target.configuration.companyId);
    return {
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
    };
}

/**
 * One read within `timeoutMs` (the read's signal aborts at it; a read that ignores it is given up half a second
 * later), ended early by `stopping`. Throws the read's failure.
 */
export async function readWithin(
    read: Reader,
    req: ReadRequest,
    timeoutMs: number,
    stopping: AbortSignal
): Promise<unknown> {
    // One controller per check, released in `finally`: AbortSignal.any on the engine's long-lived signal keeps
    // every combined signal reachable from it on Node 20.
    const abort = new AbortController();
    const stop = () => abort.abort(new Error('The engine is stopping'));
    stopping.addEventListener('abort', stop, { once: true });
    const abortTimer = setTimeout(() => abort.abort(new Error('timeout')), timeoutMs);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
            () => reject(new Error(`The check did not finish within ${Math.round(timeoutMs / 1000)} s`)),
            timeoutMs + 500
        );
    });
    try {
        return await Promise.race([read(req, abort.signal), deadline]);
    } finally {
        clearTimeout(timer);
        clearTimeout(abortTimer);
        stopping.removeEventListener('abort', stop);
    }
}

/** A read's value as the engine judges it: a duty check's measurement apart from the source it came through. */
export function targetRead(target: Pick<MonitorTarget, 'sources'>, value: unknown): TargetRead {
    if (target.sources?.length) {
        const { sourced, seen, value: measured } = value as SourcedReading;
        return { reading: { ok: true, value: measured }, source: sourced, seen };
    }
    return { reading: { ok: true, value }, source: null, seen: null };
}

/** A failed read as the engine judges it. */
export const failedRead = (error: string): TargetRead => ({ reading: { ok: false, error }, source: null, seen: null });

/**
 * Reads the monitor's node, or for a duty monitor a fresh source of its chain and names the source used, within
 * `timeoutMs` and the company's allowed networks. Never throws: a failed read is a reading with its error.
 */
export async function readTarget(
    ports: TargetReadPorts,
    target: MonitorTarget,
    timeoutMs: number
): Promise<TargetRead> {
    try {
        const req = await readRequest(ports, target);
        return targetRead(target, await readWithin(ports.reads.read, req, timeoutMs, ports.stopping));
    } catch (err) {
        return failedRead(errorText(err));
    }
}
