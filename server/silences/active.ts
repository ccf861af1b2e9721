import { gt, isNull, and, or, eq } from 'drizzle-orm';
import { MONITOR_CATALOGUE, type MonitorType } from '../../common/monitor-types';
import type { WindowMutes } from '../../common/silences';
import type { Db } from '../db/client';
import { maintenanceWindows, silences } from '../db/schema';
import type { EventBus } from '../events';
import { isOn, occurrence } from './occurrence';

/** What holds a monitor's messages back right now. */
export interface Cover {
    kind: 'silence' | 'window';
    id: number;
    /** When it stops covering (ms since epoch): the silence's end, or the end of the window's current occurrence. */
    until: number;
    reason: string;
}

/** A monitor as far as covering goes: itself, its server, its configuration, and its type (what a window mutes). */
export interface Coverable {
    id: number;
    serverId: number | null;
    configurationId: number;
    /** Null when it is not known (a deleted monitor's incident): only windows muting everything cover it. */
    type: string | null;
}

interface Entry {
    kind: Cover['kind'];
    id: number;
    startsAt: number;
    endsAt: number;
    repeatWeekly: boolean;
    reason: string;
    /** A silence mutes all; a window its `mutes`. */
    mutes: WindowMutes;
}

const REFRESH_MS = 30_000;
const EVENTS = /^(SILENCE|MAINTENANCE_WINDOW)_/;

/**
 * The silences and maintenance windows that still matter (on now or later), kept in memory by what they cover, so
 * asking whether a monitor is silenced costs three map lookups: the engine asks it on every check of every monitor,
 * the API for every monitor it lists. The database is the truth: the index reloads after each change announced on
 * the event bus and every 30 s (changes made by another process).
 */
export class ActiveSilences {
    private byTarget = new Map<string, Entry[]>();
    private timer: NodeJS.Timeout | null = null;
    private unsubscribe: (() => void) | null = null;
    private loading: Promise<void> | null = null;
    private queued: Promise<void> | null = null;

    constructor(private readonly db: Db) {}

    async start(events: EventBus, onError: (err: unknown) => void): Promise<void> {
        await this.reload();
        this.unsubscribe = events.subscribe((e) => {
            if (EVENTS.test(e.name)) this.reload().catch(onError);
        });
        this.timer = setInterval(() => this.reload().catch(onError), REFRESH_MS);
        this.timer.unref();
    }

    stop(): void {
        this.unsubscribe?.();
        if (this.timer) clearInterval(this.timer);
    }

    /**
     * Reads the database again. A read already under way may have started before the caller's change, so the caller
     * gets one more read after it (shared by everyone asking meanwhile).
     */
    reload(): Promise<void> {
        if (!this.loading) {
            this.loading = this.read().finally(() => {
                this.loading = null;
            });
            return this.loading;
        }
        this.queued ??= this.loading
            .catch(() => undefined)
            .then(() => {
                this.queued = null;
                return this.reload();
            });
        return this.queued;
    }

    private async read(): Promise<void> {
        const now = new Date();
        const [silenceRows, windowRows] = await Promise.all([
            this.db
                .select()
                .from(silences)
                .where(and(isNull(silences.endedAt), gt(silences.endsAt, now))),
            this.db
                .select()
                .from(maintenanceWindows)
                .where(or(eq(maintenanceWindows.repeatWeekly, true), gt(maintenanceWindows.endsAt, now))),
        ]);
        const byTarget = new Map<string, Entry[]>();
        const add = (key: string, entry: Entry) => byTarget.set(key, [...(byTarget.get(key) ?? []), entry]);
        for (const s of silenceRows) {
            add(targetKey(s), {
                kind: 'silence',
                id: s.id,
                startsAt: s.startsAt.getTime(),
                endsAt: s.endsAt.getTime(),
                repeatWeekly: false,
                reason: s.reason,
                mutes: 'all',
            });
        }
        for (const w of windowRows) {
            add(targetKey(w), {
                kind: 'window',
                id: w.id,
                startsAt: w.startsAt.getTime(),
                endsAt: w.endsAt.getTime(),
                repeatWeekly: w.repeatWeekly,
                reason: w.reason,
                mutes: w.mutes,
            });
        }
        this.byTarget = byTarget;
    }

    /** What covers the monitor now, the one lasting longest when several do; null when nothing does. */
    coverOf(m: Coverable, nowMs: number): Cover | null {
        let best: Cover | null = null;
        // A node's window never holds validator duty: a validator jailed while its node restarts must page.
        const nodeHealth = m.type !== null && MONITOR_CATALOGUE[m.type as MonitorType].role === 'node';
        for (const key of [`m${m.id}`, `s${m.serverId}`, `c${m.configurationId}`]) {
            for (const e of this.byTarget.get(key) ?? []) {
                if (e.mutes === 'node' && !nodeHealth) continue;
                const span = occurrence(e, nowMs);
                if (isOn(span, nowMs) && (!best || span.endsAt > best.until))
                    best = { kind: e.kind, id: e.id, until: span.endsAt, reason: e.reason };
            }
        }
        return best;
    }
}

const targetKey = (r: { monitorId?: number | null; serverId: number | null; configurationId: number | null }) =>
    r.monitorId ? `m${r.monitorId}` : r.serverId ? `s${r.serverId}` : `c${r.configurationId}`;
