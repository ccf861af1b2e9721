import { formatDuration, utc } from '../../common/duration';
import {
    type DeliveryNoticeRecord,
    isDeliveryNotice,
    isServerGroup,
    type NotificationFacts,
    type NotificationKind,
    type NotificationSubject,
    type OutgoingRecord,
    isProbeNotice,
    type ProbeNoticeRecord,
    type ServerGroupRecord,
} from './record';

/**
 * What every channel is told, before any channel's markup: built once per notification here and rendered by each
 * channel type in its own way (Telegram HTML, Discord and Slack markdown, a PagerDuty event, webhook JSON, a mail).
 */
export interface Message {
    icon: string;
    /** ALERT, STILL FAILING, RECOVERED, FLAPPING, STILL FLAPPING, CHAIN STALLED, SERVER DOWN, …, TEST, CHANNEL …. */
    heading: string;
    /**
     * What it is about: the monitor, the chain for a chain halt, the channel for a delivery notice, or the server and
     * its failing monitors for a SERVER DOWN.
     */
    name: string;
    /** good (recovered, warning cleared), bad (failing), unsettled (flapping), warning or info (test, notices, acknowledgement). */
    tone: 'good' | 'bad' | 'unsettled' | 'warning' | 'info';
    /** The body, line by line, in plain text. */
    lines: MessageLine[];
    /** The console page it is about (PUBLIC_URL), which each type links in its own way. */
    url?: string;
    /** A problem someone may take on: what its Acknowledge and Silence buttons act on. */
    actions?: MessageActions;
}

/** The incident and monitor a problem's buttons name; for a SERVER DOWN, the server and its first incident. */
export type MessageActions = { incidentId: string; monitorId: number } | { incidentId: string; serverId: number };

export interface MessageLine {
    text: string;
    /** A reference rather than news (the incident's short id): set in italics where the channel can. */
    aside?: true;
}

/** The words a message's link to the console reads (PUBLIC_URL). */
export const LINK_TEXT = 'Open in Node Monitor';

const KINDS: Record<NotificationKind, { icon: string; heading: string }> = {
    alert: { icon: '🔴', heading: 'ALERT' },
    reminder: { icon: '🔁', heading: 'STILL FAILING' },
    recovery: { icon: '✅', heading: 'RECOVERED' },
    flapping: { icon: '🔀', heading: 'FLAPPING' },
    'chain-stalled': { icon: '⛔', heading: 'CHAIN STALLED' },
    'chain-resumed': { icon: '✅', heading: 'CHAIN RESUMED' },
    'upgrade-notice': { icon: '📅', heading: 'UPGRADE SCHEDULED' },
    'upgrade-height': { icon: '⏸️', heading: 'UPGRADE HEIGHT REACHED' },
    warning: { icon: '⚠️', heading: 'WARNING' },
    'warning-cleared': { icon: '✅', heading: 'WARNING CLEARED' },
    acknowledged: { icon: '👀', heading: 'ACKNOWLEDGED' },
};

/** The sign a kind's messages and digest lines open with; undefined for a kind this build does not know. */
export const iconOf = (kind: string): string | undefined => KINDS[kind as NotificationKind]?.icon;

const WAS: Partial<Record<NotificationKind, string>> = {
    'chain-resumed': 'Was stalled',
    'warning-cleared': 'Was in Warning',
};

const ENDED: readonly NotificationKind[] = ['recovery', 'chain-resumed', 'warning-cleared'];
const OF_CHAIN: readonly NotificationKind[] = ['chain-stalled', 'chain-resumed', 'upgrade-height'];
/** Notices tell of something planned rather than a problem. */
const NOTICES: readonly NotificationKind[] = ['upgrade-notice', 'upgrade-height'];
/** Kinds that tell of a problem someone may take on: they carry the buttons. */
const ACTIONABLE: readonly NotificationKind[] = ['alert', 'reminder', 'flapping', 'chain-stalled'];

/** A notification's text, which may hold line breaks (a check's message), as lines of a message. */
const linesOf = (text: string): MessageLine[] => text.split('\n').map((t) => ({ text: t }));

function toneOf(n: NotificationFacts): Message['tone'] {
    if (ENDED.includes(n.kind)) return 'good';
    if (NOTICES.includes(n.kind) || n.kind === 'acknowledged') return 'info';
    if (n.kind === 'warning') return 'warning';
    return n.kind === 'flapping' || n.flapping ? 'unsettled' : 'bad';
}

/** One notification names the configuration, chain, server, monitor, what is wrong, since when and, on recovery, how long. */
export function notificationMessage(subject: NotificationSubject, n: NotificationFacts, nowMs: number): Message {
    const look = n.kind === 'reminder' && n.flapping ? { icon: '🔀', heading: 'STILL FLAPPING' } : KINDS[n.kind];
    const incident: MessageLine = { text: `Incident ${n.incidentId.slice(0, 8)}`, aside: true };
    const head = { ...look, tone: toneOf(n) };
    if (n.kind === 'acknowledged') {
        // Short: the alert it answers is just above it in the chat; it names who took it on.
        return { ...head, name: subject.name, lines: [...linesOf(n.message ?? 'Acknowledged'), incident] };
    }
    const lines = [
        `Configuration: ${subject.configuration.name} (${subject.configuration.chain})`,
        `Server: ${subject.server ? subject.server.name : '—'}`,
        `Monitor: ${subject.name} (${subject.type})`,
    ];
    if (ENDED.includes(n.kind)) {
        const was = WAS[n.kind] ?? (n.flapping ? 'Was flapping' : 'Was down');
        lines.push(`${was} for ${formatDuration(n.durationMs ?? nowMs - n.since)}, since ${utc(n.since)}`);
        if (n.message) lines.push(`Now: ${n.message}`);
    } else {
        lines.push(`${NOTICES.includes(n.kind) ? 'Notice' : 'Problem'}: ${n.message ?? 'no message'}`);
        lines.push(`Since: ${utc(n.since)}${n.kind === 'reminder' ? ` (${formatDuration(nowMs - n.since)} ago)` : ''}`);
    }
    return {
        ...head,
        name: OF_CHAIN.includes(n.kind) ? subject.configuration.chain : subject.name,
        lines: [...lines.flatMap(linesOf), incident],
        ...(ACTIONABLE.includes(n.kind) ? { actions: { incidentId: n.incidentId, monitorId: subject.id } } : {}),
    };
}

const NOTICE_HEADINGS = {
    failing: 'CHANNEL NOT DELIVERING',
    delivering: 'CHANNEL DELIVERING AGAIN',
    disabled: 'CHANNEL DISABLED WHILE FAILING',
    deleted: 'CHANNEL DELETED WHILE FAILING',
} as const;

/** A delivery notice names the company, the channel and its type, since when, and the destination's last error. */
export function deliveryNoticeMessage(r: DeliveryNoticeRecord): Message {
    const failing = r.kind === 'channel-failing';
    const lines = [`Company: ${r.company.name}`, `Channel: ${r.channel.name} (${r.channel.type})`];
    if (failing) {
        lines.push(`Not delivering since: ${utc(r.since)} (${formatDuration(r.at - r.since)})`);
        lines.push(`Last error: ${r.lastError ?? 'none given'}`);
        lines.push('Its notifications wait in the outbox and go out once it delivers again.');
    } else {
        lines.push(`Was not delivering for ${formatDuration(r.at - r.since)}, since ${utc(r.since)}`);
    }
    return {
        icon: failing ? '📵' : '✅',
        heading: NOTICE_HEADINGS[failing ? 'failing' : (r.ended ?? 'delivering')],
        name: r.channel.name,
        lines: lines.map((text) => ({ text })),
        tone: failing ? 'bad' : 'good',
    };
}

const PROBE_LOOKS: Record<ProbeNoticeRecord['kind'], Pick<Message, 'icon' | 'heading' | 'tone'>> = {
    'probe-cut': { icon: '📡', heading: 'PROBE LOST ITS NETWORK', tone: 'warning' },
    'probe-back': { icon: '✅', heading: 'PROBE NETWORK BACK', tone: 'good' },
    'probe-silent': { icon: '🔇', heading: 'PROBE STOPPED REPORTING', tone: 'warning' },
    'probe-reporting': { icon: '✅', heading: 'PROBE REPORTING AGAIN', tone: 'good' },
};

/**
 * A probe notice names the location, what it means for the company's checks, and since when: it asks nothing of
 * the company (its nodes are not the problem), so it carries no buttons.
 */
export function probeNoticeMessage(r: ProbeNoticeRecord): Message {
    const lines: string[] = [];
    const since = `since ${utc(r.since)}`;
    if (r.kind === 'probe-cut') {
        lines.push(
            `Probe ${r.location} lost its network: ${r.failing ?? 0} of ${r.checked ?? 0} targets unreachable from it only`
        );
        lines.push(`Company: ${r.company.name}`);
        lines.push(`Since: ${utc(r.since)}`);
        lines.push(
            'Its readings count toward no alert until it reaches its targets again; the other locations judge them.'
        );
    } else if (r.kind === 'probe-silent') {
        const n = r.monitors ?? 0;
        lines.push(
            `Probe ${r.location} stopped reporting: ${n} ${n === 1 ? 'monitor checks' : 'monitors check'} from it`
        );
        lines.push(`Company: ${r.company.name}`);
        lines.push(`Since: ${utc(r.since)}`);
        lines.push('The other locations judge its monitors until it reports again.');
    } else {
        const what =
            r.kind === 'probe-back'
                ? `Probe ${r.location} reaches its targets again`
                : `Probe ${r.location} reports again`;
        lines.push(`${what}: its readings count again`);
        lines.push(`Company: ${r.company.name}`);
        lines.push(
            `${r.kind === 'probe-back' ? 'Was cut off' : 'Was silent'} for ${formatDuration(r.at - r.since)}, ${since}`
        );
    }
    return { ...PROBE_LOOKS[r.kind], name: r.location, lines: lines.map((text) => ({ text })) };
}

const GROUP_LOOKS: Record<ServerGroupRecord['kind'], Pick<Message, 'icon' | 'heading' | 'tone'>> = {
    'server-down': { icon: '🔴', heading: 'SERVER DOWN', tone: 'bad' },
    'server-still-down': { icon: '🔁', heading: 'SERVER STILL DOWN', tone: 'bad' },
    'server-up': { icon: '✅', heading: 'SERVER UP', tone: 'good' },
};

/**
 * One message for every failing monitor of a server (server-hold.ts): its first line names the server and them all,
 * `SERVER DOWN validator-1 — 3 monitors failing: Block height, Disk, RPC`, then what each says. Their reminders make
 * a SERVER STILL DOWN of the same shape that says how long it has lasted.
 */
export function serverGroupMessage(r: ServerGroupRecord): Message {
    const up = r.kind === 'server-up';
    const names = r.members.map((m) => m.subject.name).join(', ');
    const count = `${r.members.length} monitors ${up ? 'recovered' : 'failing'}`;
    const lines = [`Configuration: ${r.configuration.name} (${r.configuration.chain})`];
    const lasted = (m: (typeof r.members)[number]) => m.durationMs ?? m.at - m.since;
    for (const m of r.members) {
        const what = up ? `back after ${formatDuration(lasted(m))}` : (m.message ?? 'no message');
        lines.push(`${m.subject.name} (${m.subject.type}): ${what}`);
    }
    const lastEnd = Math.max(...r.members.map((m) => m.since + lasted(m)));
    // A SERVER DOWN that also stands for reminders (the channel was unreachable meanwhile) says so, as an ALERT does.
    const still = Math.max(0, ...r.members.map((m) => m.stillFailing?.at ?? 0));
    if (r.kind === 'server-up') {
        lines.push(`Was down for ${formatDuration(lastEnd - r.since)}, since ${utc(r.since)}`);
    } else if (r.kind === 'server-still-down') {
        lines.push(`Down for ${formatDuration(r.at - r.since)}, since ${utc(r.since)}`);
    } else {
        lines.push(`Since: ${utc(r.since)}`);
        if (still) lines.push(`Still failing since ${utc(r.since)} (${formatDuration(still - r.since)} so far)`);
    }
    const ids = r.members.map((m) => m.incidentId.slice(0, 8)).join(', ');
    return {
        ...GROUP_LOOKS[r.kind],
        name: `${r.server.name} — ${count}: ${names}`,
        lines: [...lines.flatMap(linesOf), { text: `Incidents ${ids}`, aside: true }],
        ...(r.url ? { url: r.url } : {}),
        ...(!up && r.members[0] ? { actions: { incidentId: r.members[0].incidentId, serverId: r.server.id } } : {}),
    };
}

/** The message of any record a channel is sent: a notification (with its late reminders and link), a notice, a test. */
export function messageOf(record: OutgoingRecord): Message {
    if (isDeliveryNotice(record)) return deliveryNoticeMessage(record);
    if (isProbeNotice(record)) return probeNoticeMessage(record);
    if (isServerGroup(record)) return serverGroupMessage(record);
    if (record.kind === 'test') {
        return {
            icon: 'ℹ️',
            heading: 'TEST',
            name: 'Node Monitor',
            lines: [
                { text: `Test message for notification channel "${record.channelName}". Alerts will arrive here.` },
            ],
            tone: 'info',
        };
    }
    const m = notificationMessage(record.subject, record, record.at);
    const still = record.stillFailing;
    if (still) {
        const so = `Still failing since ${utc(record.since)} (${formatDuration(still.at - record.since)} so far)`;
        m.lines.push({ text: so });
    }
    return record.url ? { ...m, url: record.url } : m;
}

/** `[ALERT] Block height`: the e-mail subject and the one-line summary of the chat types. */
export const titleOf = (m: Message) => `[${m.heading}] ${m.name}`;

/** The body as plain text lines, for the types without markup of their own. */
export const textOf = (m: Message) => m.lines.map((l) => l.text);
