/** Wire shapes of status pages: the admin's (`/api/status-pages`) and the public one (`/api/public/status/{slug}`). */
export interface StatusPage {
    id: number;
    company_id: number;
    slug: string;
    title: string;
    description: string | null;
    is_public: boolean;
    /** Masked on every read; in full only in the answer to the write that generated it. */
    access_key: string | null;
    monitor_ids: number[];
    /** Names shown instead of the monitors' own, by monitor id. */
    display_names: Record<string, string>;
    /** Where visitors read it, relative to the console. */
    url: string;
    created_at: string;
    updated_at: string;
}

export type PublicStatus = 'operational' | 'degraded' | 'down';

export const INCIDENT_UPDATE_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type IncidentUpdateStatus = (typeof INCIDENT_UPDATE_STATUSES)[number];

export interface IncidentUpdate {
    id: number;
    incident_id: string;
    status: IncidentUpdateStatus;
    text: string;
    created_at: string;
    created_by: string;
}

export interface PublicIncident {
    title: string;
    status: IncidentUpdateStatus;
    started_at: string;
    resolved_at?: string;
    updates: { status: IncidentUpdateStatus; text: string; at: string }[];
}

export interface PublicStatusAnswer {
    title: string;
    description: string | null;
    status: PublicStatus;
    components: {
        name: string;
        status: PublicStatus;
        uptime_90d: number | null;
        days: { date: string; uptime: number | null }[];
    }[];
    incidents: PublicIncident[];
    maintenance: { starts_at: string; ends_at: string; reason: string }[];
}

export interface StatusSubscriber {
    id: number;
    kind: 'email' | 'webhook';
    address: string;
    confirmed: boolean;
    created_at: string;
}
