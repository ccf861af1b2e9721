/**
 * What a channel is told, as plain data: defined here, apart from the engine, which builds these from its targets
 * and transitions (so server/notify never imports server/engine). Stored as JSON in the outbox row's `payload`.
 */
export type NotificationKind =
    | 'alert'
    | 'reminder'
    | 'recovery'
    | 'flapping'
    | 'chain-stalled'
    | 'chain-resumed'
    /** An upgrade plan seen on chain (when first seen, and again an hour before); informs, asks nothing. */
    | 'upgrade-notice'
    /** The chain stopped at a planned upgrade height; block alerts are held for the grace. */
    | 'upgrade-height'
    /** A monitor entered Warning from healthy; sent only where a link asks for warnings (min_severity). */
    | 'warning'
    /** That warning ended with the monitor healthy again (not when it turned into an Error alert). */
    | 'warning-cleared'
    /** Someone took the incident on (console, API, Telegram): `message` says who; reminders and escalation stop. */
    | 'acknowledged';

/** Warnings and their clears are of severity warning; everything else is sent as critical. */
export const severityOf = (kind: NotificationKind): 'critical' | 'warning' =>
    kind === 'warning' || kind === 'warning-cleared' ? 'warning' : 'critical';

/** Where a notification comes from: a monitor of a configuration, on a server or not. */
export interface NotificationSubject {
    id: number;
    name: string;
    type: string;
    configuration: { id: number; name: string; chain: string };
    server: { id: number; name: string } | null;
}

/** What the engine tells of one transition of a monitor: the facts every channel's message is built from. */
export interface NotificationFacts {
    kind: NotificationKind;
    /** The same for the alert, its reminders and its recovery. */
    incidentId: string;
    since: number;
    /** For a recovery, how long the incident lasted. */
    durationMs?: number;
    /** What is wrong (alert, reminder) or what was wrong last (recovery). */
    message: string | null;
    /** The incident was a flapping episode rather than one outage. */
    flapping?: boolean;
    /**
     * An alert entered from a warning the channels were told of: that warning's incident id. No warning-cleared
     * follows (the alert's recovery ends both), so a channel that keeps incidents (PagerDuty) resolves it here.
     */
    endsWarning?: string;
}

export interface NotificationRecord extends NotificationFacts {
    /** When it was raised (ms since epoch). */
    at: number;
    /** 'warning' for warnings and their clears (severityOf): only links with min_severity warning get them. */
    severity: 'critical' | 'warning';
    subject: NotificationSubject;
    /**
     * Set by the outbox when reminders fell due while the destination could not be reached: the message stands for
     * them too, and says the incident is still failing as of `at`.
     */
    stillFailing?: { at: number; reminders: number };
    /** The console page it is about (PUBLIC_URL), added when it is sent; absent without PUBLIC_URL. */
    url?: string;
    /**
     * Set by the outbox when the row went out as part of a SERVER DOWN or SERVER UP group of one row in this channel
     * (server-hold.ts): the group's key, which PagerDuty keys the page by instead of the incident. An
     * acknowledgement of an incident whose alert went out in such a group carries it too, to acknowledge that page.
     */
    group?: string;
}

/**
 * The alerts (or reminders, or recoveries) of every failing monitor of one server, sent as one message
 * (server-hold.ts). Built by the outbox from the rows it stands for; never stored.
 */
export interface ServerGroupRecord {
    /** SERVER DOWN, SERVER STILL DOWN (its monitors' reminders), SERVER UP. */
    kind: 'server-down' | 'server-still-down' | 'server-up';
    /** `server/<id>/<first incident id>`: the same for the SERVER DOWN and its SERVER UP (PagerDuty's dedup_key). */
    group: string;
    server: { id: number; name: string };
    configuration: NotificationSubject['configuration'];
    /** The notifications it stands for, one per monitor, in the order they were raised. */
    members: NotificationRecord[];
    /** When the first of them failed. */
    since: number;
    at: number;
    /** The console page of the first incident (PUBLIC_URL). */
    url?: string;
}

export const isServerGroup = (r: OutgoingRecord): r is ServerGroupRecord =>
    r.kind === 'server-down' || r.kind === 'server-still-down' || r.kind === 'server-up';

/** Kinds that belong to an incident (its page exists); the others link the monitor's page. */
const OF_INCIDENT: readonly NotificationKind[] = [
    'alert',
    'reminder',
    'recovery',
    'flapping',
    'chain-stalled',
    'chain-resumed',
    'acknowledged',
];

/** `record` with the page an operator opens from the message: `<PUBLIC_URL>/incidents/<id>`, or `/monitor/<id>`. */
export function withLink(record: NotificationRecord, publicUrl: string | null): NotificationRecord {
    if (!publicUrl) return record;
    const page = OF_INCIDENT.includes(record.kind)
        ? `/incidents/${encodeURIComponent(record.incidentId)}`
        : `/monitor/${record.subject.id}`;
    return { ...record, url: `${publicUrl}${page}` };
}

/** The test message of POST /api/notification-channels/test. */
export interface TestRecord {
    kind: 'test';
    channelName: string;
    at: number;
}

/**
 * Told to the super admins' channels when the outbox has not delivered to a channel for 15 minutes, and again
 * when it delivers again (notify/channel-watch.ts). Not a NotificationKind: it is about a channel, not a monitor,
 * so it carries the channel and its company instead of a subject. Never a secret: `lastError` is the destination's
 * text as the outbox stored it, redacted.
 */
export interface DeliveryNoticeRecord {
    kind: 'channel-failing' | 'channel-delivering';
    /** The same for the failing notice and its end. */
    incidentId: string;
    company: { id: number; name: string };
    channel: { id: number; name: string; type: string };
    /** When the first undelivered message of the failing run was queued (ms since epoch). */
    since: number;
    lastError: string | null;
    /** How the failure ended: delivering again, or the channel was disabled or deleted. */
    ended?: 'delivering' | 'disabled' | 'deleted';
    at: number;
}

/**
 * Told to a company's channels when a probe location it checks from lost its own network (`probe-cut`, with the
 * company's own counts) or stopped reporting (`probe-silent`), and once more when that ends (server/engine/
 * probe-watch.ts). Not a NotificationKind: it is about a location, not a monitor, and opens no incident.
 */
export interface ProbeNoticeRecord {
    kind: 'probe-cut' | 'probe-back' | 'probe-silent' | 'probe-reporting';
    /** The same for the notice and its end. */
    incidentId: string;
    company: { id: number; name: string };
    location: string;
    /** For `probe-cut`: of the company's targets checked from the location and another, how many failed from it only. */
    failing?: number;
    checked?: number;
    /** For `probe-silent`: how many of the company's monitors check from the location or name it. */
    monitors?: number;
    /** When it was first told (ms since epoch). */
    since: number;
    at: number;
}

/** Everything a channel type renders. */
export type OutgoingRecord =
    | NotificationRecord
    | TestRecord
    | DeliveryNoticeRecord
    | ProbeNoticeRecord
    | ServerGroupRecord;

export const isDeliveryNotice = (r: OutgoingRecord): r is DeliveryNoticeRecord =>
    r.kind === 'channel-failing' || r.kind === 'channel-delivering';

export const PROBE_NOTICE_KINDS: readonly ProbeNoticeRecord['kind'][] = [
    'probe-cut',
    'probe-back',
    'probe-silent',
    'probe-reporting',
];

export const isProbeNotice = (r: OutgoingRecord): r is ProbeNoticeRecord =>
    (PROBE_NOTICE_KINDS as readonly string[]).includes(r.kind);

/** A notice about a channel or a probe rather than a monitor: it stands for no incident and is rendered as it is. */
export const isNotice = (r: OutgoingRecord): r is DeliveryNoticeRecord | ProbeNoticeRecord =>
    isDeliveryNotice(r) || isProbeNotice(r);

/** One line of a digest: the row's summary as HTML (summary.ts) or, for a row without one, its first text line. */
export interface DigestLine {
    id: number;
    text: string;
    summary: string | null;
}

export function toRecord(
    subject: NotificationSubject,
    facts: NotificationFacts,
    at: number,
    severity: NotificationRecord['severity'] = severityOf(facts.kind)
): NotificationRecord {
    return {
        kind: facts.kind,
        incidentId: facts.incidentId,
        since: facts.since,
        ...(facts.durationMs !== undefined ? { durationMs: facts.durationMs } : {}),
        message: facts.message,
        ...(facts.flapping ? { flapping: true } : {}),
        ...(facts.endsWarning ? { endsWarning: facts.endsWarning } : {}),
        at,
        severity,
        subject: {
            id: subject.id,
            name: subject.name,
            type: subject.type,
            configuration: {
                id: subject.configuration.id,
                name: subject.configuration.name,
                chain: subject.configuration.chain,
            },
            server: subject.server ? { id: subject.server.id, name: subject.server.name } : null,
        },
    };
}

/** A stored payload, or null when it is absent or not one (rows written before payloads existed). */
export function parsePayload(json: string | null): OutgoingRecord | null {
    if (!json) return null;
    try {
        const v = JSON.parse(json) as { kind?: unknown };
        return typeof v === 'object' && v !== null && typeof v.kind === 'string' ? (v as OutgoingRecord) : null;
    } catch {
        return null;
    }
}
