import { and, asc, eq, inArray, isNull, lt, notExists, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { formatDuration } from '../../common/duration';
import type { AppConfig } from '../config';
import type { DatabaseHealth } from '../db/outage';
import type { ActiveSilences } from '../silences/active';
import type { Db } from '../db/client';
import { configurationChannels, incidentEvents, incidents, monitors, notificationChannels } from '../db/schema';
import { groupIncidents, serverGroupsOf } from '../notify/server-hold';
import { linksOf, openingRecord, queue } from './queue';
import { escalatedChannels, sqlNow } from './record';

/** Closed incidents are deleted this many at a time, so a first prune of a large backlog never blocks the engine. */
const PRUNE_STEP = 200;
const PRUNE_STEPS_PER_RUN = 10;
const PRUNE_EVERY_MS = 3600_000;
const ORPHANS_EVERY_MS = 60_000;

/**
 * Escalation: sends an incident's alert to each linked channel with `escalate_after_minutes` once the incident has
 * stayed open and unacknowledged that long, and records it in the timeline (which also makes the channel get its
 * later reminders and recovery, record.ts). The incidents of one SERVER DOWN are escalated together, when the first
 * of them is due, as one SERVER DOWN: one outage, one page. Everything it decides is read from the database at each
 * sweep, so a restart neither forgets an escalation that fell due while it was down nor sends one twice. Returns how
 * many rows it queued.
 */
export async function escalateDue(
    db: Db,
    nowMs: number,
    /** Whether a silence or maintenance window covers the incident's monitor now: its escalation waits until it ends. */
    silenced: (i: {
        monitorId: number;
        serverId: number | null;
        configurationId: number;
        type: string | null;
    }) => boolean = () => false
): Promise<number> {
    const due = await db
        .select({
            incidentId: incidents.id,
            channelId: configurationChannels.notificationChannelId,
            monitorId: incidents.monitorId,
            serverId: incidents.serverId,
            configurationId: incidents.configurationId,
            type: monitors.type,
        })
        .from(incidents)
        .leftJoin(monitors, eq(monitors.id, incidents.monitorId))
        .innerJoin(configurationChannels, eq(configurationChannels.configurationId, incidents.configurationId))
        .innerJoin(notificationChannels, eq(notificationChannels.id, configurationChannels.notificationChannelId))
        .where(
            and(
                eq(incidents.status, 'open'),
                isNull(incidents.acknowledgedAt),
                eq(notificationChannels.isEnabled, true),
                sql`${incidents.openedAt} + ${configurationChannels.escalateAfterMinutes} * interval '1 minute' <= ${sqlNow(nowMs)}`,
                notExists(
                    db
                        .select({ one: sql`1` })
                        .from(incidentEvents)
                        .where(
                            and(
                                eq(incidentEvents.incidentId, incidents.id),
                                eq(incidentEvents.kind, 'escalation'),
                                eq(incidentEvents.channelId, configurationChannels.notificationChannelId)
                            )
                        )
                )
            )
        )
        .limit(1000);
    let sent = 0;
    for (const { incidentId, channelId, monitorId, serverId, configurationId, type } of due) {
        if (monitorId !== null && silenced({ monitorId, serverId, configurationId, type })) continue;
        sent += await db.transaction(async (txRaw) => {
            const tx = txRaw as unknown as Db;
            // An incident whose alert went out in a SERVER DOWN is escalated with the others of its group, as one
            // SERVER DOWN under the group's key (message-plan.ts): the page it opens is the one its SERVER UP resolves.
            const group = (await serverGroupsOf(tx, [incidentId])).get(incidentId);
            const ids = group ? await groupIncidents(tx, group) : [incidentId];
            // Read again in the transaction (locked on PostgreSQL): an acknowledgement or recovery may have come first,
            // or an earlier escalation of its group.
            const rows = await tx
                .select({ incident: incidents, type: monitors.type })
                .from(incidents)
                .leftJoin(monitors, eq(monitors.id, incidents.monitorId))
                .where(and(inArray(incidents.id, ids), eq(incidents.status, 'open'), isNull(incidents.acknowledgedAt)))
                .orderBy(asc(incidents.openedAt))
                .for('update', { of: incidents });
            const escalated = await escalatedChannels(tx, ids);
            const taking = rows.filter(
                ({ incident: i, type }) =>
                    !escalated.has(`${i.id}/${channelId}`) &&
                    (i.id === incidentId ||
                        i.monitorId === null ||
                        !silenced({
                            monitorId: i.monitorId,
                            serverId: i.serverId,
                            configurationId: i.configurationId,
                            type,
                        }))
            );
            if (!taking.some((r) => r.incident.id === incidentId)) return 0;
            const [first] = taking;
            const link =
                first && (await linksOf(tx, [first.incident.configurationId])).find((l) => l.channelId === channelId);
            if (!link || link.escalateAfterMinutes === null) return 0;
            let queuedRows = 0;
            for (const { incident: row } of taking) {
                const opening = openingRecord(row.payload);
                if (!opening) continue;
                const waited = formatDuration(nowMs - row.openedAt.getTime());
                const queued = await queue(
                    tx,
                    {
                        ...opening,
                        at: nowMs,
                        message: `${opening.message ?? 'no message'} (unacknowledged for ${waited})`,
                    },
                    [link],
                    group ?? null
                );
                await tx.insert(incidentEvents).values({
                    incidentId: row.id,
                    at: new Date(nowMs),
                    kind: 'escalation',
                    channelId,
                    text: queued.length
                        ? `Escalated to ${link.channelName}: unacknowledged for ${waited}`
                        : `Not escalated to ${link.channelName}: its routing does not take this incident`,
                });
                queuedRows += queued.length;
            }
            return queuedRows;
        });
    }
    return sent;
}

/** Closes open incidents whose monitor was deleted: nothing would ever recover them. */
export async function closeOrphans(db: Db, nowMs: number): Promise<number> {
    const closed = await db
        .update(incidents)
        .set({ status: 'closed', closedAt: new Date(nowMs) })
        .where(
            and(
                eq(incidents.status, 'open'),
                notExists(db.select({ one: sql`1` }).from(monitors).where(eq(monitors.id, incidents.monitorId)))
            )
        )
        .returning({ id: incidents.id });
    if (closed.length) {
        await db.insert(incidentEvents).values(
            closed.map((c) => ({
                incidentId: c.id,
                at: new Date(nowMs),
                kind: 'closed',
                text: 'Closed: its monitor was deleted',
            }))
        );
    }
    return closed.length;
}

/** Deletes incidents closed more than `days` ago (their timeline goes with them), a small step at a time. */
export async function pruneIncidents(db: Db, days: number, nowMs: number): Promise<number> {
    let removed = 0;
    for (let i = 0; i < PRUNE_STEPS_PER_RUN; i++) {
        const old = await db
            .select({ id: incidents.id })
            .from(incidents)
            .where(and(eq(incidents.status, 'closed'), lt(incidents.closedAt, new Date(nowMs - days * 86_400_000))))
            .limit(PRUNE_STEP);
        if (old.length === 0) break;
        await db.delete(incidents).where(
            inArray(
                incidents.id,
                old.map((o) => o.id)
            )
        );
        removed += old.length;
        if (old.length < PRUNE_STEP) break;
    }
    return removed;
}

/** What the sweeper takes of the app (built in server/assembly/background.ts). */
export interface SweeperPorts {
    db: Db;
    dbHealth: DatabaseHealth;
    silences: Pick<ActiveSilences, 'coverOf'>;
    config: Pick<AppConfig, 'incidentRetentionDays'>;
}

/** Runs escalation every few seconds, closes orphans every minute, prunes hourly; started with the engine. */
export class IncidentSweeper {
    private timer: NodeJS.Timeout | null = null;
    private running: Promise<void> | null = null;
    private orphansAt = 0;
    private prunedAt = 0;

    constructor(
        private readonly ctx: SweeperPorts,
        private readonly log: FastifyBaseLogger,
        private readonly intervalMs = 5000
    ) {}

    start(): void {
        this.timer = setInterval(() => {
            this.running ??= this.sweep().finally(() => {
                this.running = null;
            });
        }, this.intervalMs);
    }

    async stop(): Promise<void> {
        if (this.timer) clearInterval(this.timer);
        await this.running;
    }

    private async sweep(): Promise<void> {
        const db = this.ctx.db;
        const now = Date.now();
        try {
            const escalated = await escalateDue(db, now, (i) =>
                Boolean(
                    this.ctx.silences.coverOf(
                        { id: i.monitorId, serverId: i.serverId, configurationId: i.configurationId, type: i.type },
                        now
                    )
                )
            );
            if (escalated) this.log.info(`Escalated ${escalated} unacknowledged incident notifications`);
            if (now - this.orphansAt >= ORPHANS_EVERY_MS) {
                this.orphansAt = now;
                await closeOrphans(db, now);
            }
            if (now - this.prunedAt >= PRUNE_EVERY_MS) {
                this.prunedAt = now;
                const pruned = await pruneIncidents(db, this.ctx.config.incidentRetentionDays, now);
                if (pruned) this.log.info(`Deleted ${pruned} incidents closed over the retention period`);
            }
        } catch (err) {
            if (!this.ctx.dbHealth.failed(err, 'the incident sweep'))
                this.log.error({ err }, 'The incident sweep failed');
        }
    }
}
