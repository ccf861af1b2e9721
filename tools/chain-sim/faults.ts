// Fault injection state: one entry per protocol a node serves. http.ts applies them to every request.

export type Protocol = 'rpc' | 'rest' | 'metrics' | 'nodeExporter';
export const PROTOCOLS: readonly Protocol[] = ['rpc', 'rest', 'metrics', 'nodeExporter'];

export interface Fault {
    /** Wait this long before answering (slow node). */
    delayMs?: number;
    /** Answer with this HTTP status (e.g. 502, 503) and a proxy-like text body instead of the real answer. */
    status?: number;
    /** Destroy the socket without any response (connection reset / "socket hang up"). */
    drop?: boolean;
    /** Send a broken body with a 200: 'invalid' is not parseable at all, 'truncated' is the real body cut in half. */
    malformed?: 'invalid' | 'truncated';
}

export class FaultTable {
    private readonly faults = new Map<Protocol, Fault>();

    get(protocol: Protocol): Fault | undefined {
        return this.faults.get(protocol);
    }

    /** Merge into the current fault so that e.g. a delay and a 5xx can be combined; a zero/false value clears. */
    set(protocol: Protocol | 'all', fault: Fault): void {
        for (const p of protocol === 'all' ? PROTOCOLS : [protocol]) {
            const merged: Fault = { ...this.faults.get(p), ...fault };
            if (!merged.delayMs) delete merged.delayMs;
            if (!merged.status) delete merged.status;
            if (!merged.drop) delete merged.drop;
            if (!merged.malformed) delete merged.malformed;
            if (Object.keys(merged).length) this.faults.set(p, merged);
            else this.faults.delete(p);
        }
    }

    clear(protocol?: Protocol | 'all'): void {
        if (!protocol || protocol === 'all') this.faults.clear();
        else this.faults.delete(protocol);
    }

    snapshot(): Partial<Record<Protocol, Fault>> {
        return Object.fromEntries(this.faults);
    }
}
