/** What a silence or maintenance window covers, named (the API's `target` field). */
export interface CoverTarget<T extends string> {
    type: T;
    id: number;
    name: string;
    configuration_id: number;
    configuration_name: string;
}

/** A silence as /api/silences answers it. `active`: it covers now (an upcoming one does not yet). */
export interface Silence {
    id: number;
    monitor_id: number | null;
    server_id: number | null;
    configuration_id: number | null;
    target: CoverTarget<'monitor' | 'server' | 'configuration'>;
    starts_at: string;
    ends_at: string;
    reason: string;
    created_by: string;
    created_at: string;
    ended_at: string | null;
    ended_early: boolean;
    active: boolean;
}

/** A maintenance window as /api/maintenance-windows answers it. */
export const WINDOW_MUTES = ['node', 'all'] as const;
export type WindowMutes = (typeof WINDOW_MUTES)[number];

export interface MaintenanceWindow {
    id: number;
    configuration_id: number | null;
    server_id: number | null;
    target: CoverTarget<'server' | 'configuration'>;
    starts_at: string;
    ends_at: string;
    repeat_weekly: boolean;
    /** `node`: only node-health monitors (the catalogue's role) are muted, validator duty still pages; `all`: every one. */
    mutes: WindowMutes;
    reason: string;
    created_by: string;
    created_at: string;
    updated_at: string;
    /** Whether an occurrence is on now. */
    active: boolean;
    /** The occurrence on now or coming next; null once a one-off window is over. */
    next_starts_at: string | null;
    next_ends_at: string | null;
}
