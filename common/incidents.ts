/** One outage as GET /api/incidents and GET /api/incidents/{id} answer it, with its timeline and deliveries. */
export interface Incident {
    /** The incident id every message about it prints. */
    id: string;
    status: 'open' | 'closed';
    severity: 'critical' | 'warning';
    /** 'chain' for a chain halt pooling the blockChecks of a configuration (CHAIN STALLED), else 'monitor'. */
    kind: 'monitor' | 'chain';
    monitor_id: number | null;
    server_id: number | null;
    configuration_id: number;
    /** Names as they were when it opened (the rows may be renamed or deleted since). */
    monitor_name: string | null;
    server_name: string | null;
    configuration_name: string;
    /** What was wrong when it opened. */
    message: string | null;
    opened_at: string;
    acknowledged_at: string | null;
    /** A user name, or a Telegram user (`@name`, or its numeric id). */
    acknowledged_by: string | null;
    acknowledged_via: 'console' | 'api' | 'telegram' | null;
    closed_at: string | null;
    /** Until it closed, or until now while it is open. */
    duration_seconds: number;
    /** On GET /api/incidents/{id} only, oldest first. */
    timeline?: IncidentTimelineEntry[];
}

/**
 * One line of an incident's timeline: what happened (alert, reminder, flapping, recovery, chain-stalled,
 * chain-resumed, acknowledged, note, escalation, closed), and for each notification one line per channel with its
 * delivery `result`.
 */
export interface IncidentTimelineEntry {
    at: string;
    kind: string;
    channel_id?: number;
    channel_name?: string;
    result?: 'sent' | 'pending' | 'failed';
    text: string;
    /** kind `recovery-held`: when the channels get the recovery (the silence or maintenance window ends). */
    until?: string;
}

/** GET /api/incidents/stats: over every incident the same `filter` lists (not one page). */
export interface IncidentStats {
    count: number;
    acknowledged: number;
    closed: number;
    /** Mean time to acknowledge, over the acknowledged ones; null when none is. */
    mtta_seconds: number | null;
    /** Mean time to recover, over the closed ones; null when none is. */
    mttr_seconds: number | null;
}

/** The open incident a monitor is part of, on GET /api/monitors/{id} and /api/monitors/failed. */
export interface OpenIncidentRef {
    id: string;
    opened_at: string;
    /** Who acknowledged it (as on the incident), null until someone has. */
    acknowledged_by: string | null;
}
