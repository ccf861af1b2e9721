import type { MonitorType } from '../../common/monitor-types';
import type { ServiceType } from '../../common/service-types';
import type { HttpClient } from '../clients/http';

/** What a check is given: the monitor, where its node lives, and the one egress client. */
export interface CheckContext {
    monitor: {
        id: number;
        name: string;
        type: MonitorType;
        settings: Record<string, unknown>;
        /** The type of the service the monitor was created with (and follows), if any. */
        serviceType?: ServiceType | null;
    };
    /** The monitor's server, or null for a monitor without one (urlCheck). */
    server: { id: number; name: string; address: string } | null;
    /** Enabled services of the server; a check picks the one of the type it reads. */
    services: { type: ServiceType; address: string }[];
    chain: { name: string; bech32Prefix: string | null };
    http: HttpClient;
    /** Aborted when the check's timeout passes or the engine stops. */
    signal: AbortSignal;
}

/** The outcome of reading the node: a measurement, or an error sentence an operator can act on. */
export type ReadResult<M> = { ok: true; value: M } | { ok: false; error: string };

/** A type's judgement of one reading: `ok`, `warning` or `error`, with the sentence shown as last_error. */
export interface Verdict {
    level: 'ok' | 'warning' | 'error';
    message: string | null;
}

/**
 * One monitor type. `read` talks to the node and never decides health; `evaluate` is pure: from the memory the
 * type kept after the previous reading, this reading and the settings, it returns the new memory and a verdict.
 * The memory is persisted by the engine (JSON), so it must be plain data.
 */
export interface Check<M = unknown, Mem = unknown> {
    /** Seconds between two checks of a monitor with these settings. */
    intervalSeconds(settings: Record<string, unknown>): number;
    /** Minutes between reminders while the monitor stays in Error. */
    alertSleepMinutes(settings: Record<string, unknown>): number;
    read(ctx: CheckContext): Promise<M>;
    evaluate(
        memory: Mem | undefined,
        reading: ReadResult<M>,
        settings: Record<string, unknown>,
        nowMs: number
    ): {
        memory: Mem;
        verdict: Verdict;
        /** A message to send once whatever the alert state (upgradeWatch: an upgrade was scheduled, or is an hour away). */
        notice?: string | null;
    };
}
