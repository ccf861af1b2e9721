/**
 * Probe locations, so a node that is down is told apart from our own network being down: every worker and probe process checks from one (PROBE_LOCATION); a monitor names the
 * locations that check it (`locations`, null for all) and how many must see a failure before it is in Error
 * (`confirm`). The embedded profile has the one location `local`.
 */
export const DEFAULT_LOCATION = 'local';

/** A location's name: it becomes part of a BullMQ queue name and of messages, so letters, digits, `-` and `_` only. */
export const LOCATION_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

export const MAX_LOCATIONS = 20;

/** One location's latest check of a monitor, as the monitor page lists it. */
export interface LocationResult {
    location: string;
    /** `none`: the location did not answer in time. */
    level: 'ok' | 'warning' | 'error' | 'none';
    message: string | null;
    latency_ms: number | null;
    checked_at: string;
}

/** GET /monitors/location-results: a monitor that several locations check, with each one's latest result. */
export interface MonitorLocationResults {
    monitor_id: number;
    location_results: LocationResult[];
}

/** What one location saw at one check, as a monitor's check history keeps it: the level alone. */
export type LocationLevel = Pick<LocationResult, 'location' | 'level'>;
