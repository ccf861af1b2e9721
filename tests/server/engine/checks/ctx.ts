import type { MonitorType } from '../../../../common/monitor-types';
import type { ServiceType } from '../../../../common/service-types';
import { createHttpClient, withPolicy } from '../../../../server/clients/http';
import type { CheckContext } from '../../../../server/engine/check';

export const http = withPolicy(createHttpClient({ timeoutMs: 2000 }), { allowedNetworks: ['127.0.0.0/8'] });

let nextId = 1;

export function makeCtx(
    type: MonitorType,
    settings: Record<string, unknown>,
    services: Partial<Record<ServiceType, string>>,
    chain: { name: string; bech32Prefix: string | null } = { name: 'cosmoshub', bech32Prefix: 'cosmos' }
): CheckContext {
    return {
        monitor: { id: nextId++, name: `${type} test`, type, settings },
        server: { id: 1, name: 'node-1', address: 'http://127.0.0.1' },
        services: Object.entries(services).map(([t, address]) => ({ type: t as ServiceType, address: address ?? '' })),
        chain,
        http,
        signal: new AbortController().signal,
    };
}

/** Runs evaluate over a sequence of readings, returning each verdict; memory is round-tripped through JSON. */
export function run<M, Mem>(
    check: {
        evaluate(
            memory: Mem | undefined,
            reading: { ok: true; value: M } | { ok: false; error: string },
            settings: Record<string, unknown>,
            nowMs: number
        ): { memory: Mem; verdict: { level: string; message: string | null } };
    },
    settings: Record<string, unknown>,
    steps: { at: number; reading: { ok: true; value: M } | { ok: false; error: string } }[],
    initial?: Mem
) {
    let memory = initial;
    return steps.map(({ at, reading }) => {
        const out = check.evaluate(memory, reading, settings, at);
        memory = JSON.parse(JSON.stringify(out.memory)) as Mem;
        return { ...out.verdict, memory };
    });
}

export const okv = <M>(value: M) => ({ ok: true as const, value });
export const fail = (error: string) => ({ ok: false as const, error });
