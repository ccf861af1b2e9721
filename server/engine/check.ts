import type { MonitorType } from '../../common/monitor-types';
import type { ServiceType } from '../../common/service-types';
import type { HttpClient } from '../clients/http';
import type { FilesystemUsage } from '../clients/node-exporter';
import type { ChainHalts } from './chain-halt';
import type { MonitorTarget } from './targets';
import type { AlertState, Transition } from './transitions';
import type { UpgradeHolds } from './upgrade-hold';
import type { ReadResult, Verdict } from './verdict';

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

/** A filesystem a disk reading saw: its server's disk index (dashboard, Prometheus page) and disk history keep it. */
export type DiskSeen = Pick<FilesystemUsage, 'mountpoint' | 'usedPercent' | 'sizeBytes' | 'availBytes'>;

/** A validator's figures on the Prometheus page: missed blocks and budget left in the window, active-set margin. */
export interface ValidatorGauges {
    missed?: number;
    budgetLeft?: number;
    rankMargin?: number;
}

/** What the engine keeps across monitors, which one type's check feeds and another's consults. */
export interface EngineShared {
    upgradeHolds: UpgradeHolds;
    chainHalts: ChainHalts;
}

/** One judged check, as the `settle` hook sees it: the transition it may change and what led to it. */
export interface Judged<M, Mem> {
    target: MonitorTarget;
    reading: ReadResult<M>;
    /** Undefined when the check could not be judged (it threw, or a duty check saw no fresh source). */
    memory: Mem | undefined;
    verdict: Verdict;
    prev: AlertState;
    next: Transition;
    nowMs: number;
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
    /** Its Error is the validator missing blocks: one signing alert per validator covers it (duty-group.ts). */
    signingGroup?: true;
    /** What a monitor with these settings on this chain cannot do, said when it is saved (it is saved all the same). */
    saveWarnings?(settings: Record<string, unknown>, chain: string): string[];
    /** Its validator's figures for Grafana (the Prometheus page), from what the check kept. */
    validatorGauges?(memory: Mem | undefined): ValidatorGauges;
    /** The one number its history chart shows (the catalogue's `reading`); null for a failed read. */
    readingValue?(reading: ReadResult<M>, memory: Mem | undefined): number | null;
    /** The filesystems the reading saw, for its server's disk index and disk history; null for none. */
    disks?(reading: ReadResult<M>): DiskSeen[] | null;
    /** Tells the engine's shared facts what this check learnt, and returns the transition they make of it. */
    settle?(shared: EngineShared, judged: Judged<M, Mem>): Transition;
    /** The row's text while the monitor is held on purpose (a node waiting at a planned upgrade height), or null. */
    heldText?(shared: EngineShared, monitorId: number): string | null;
}
