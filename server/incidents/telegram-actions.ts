import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../context';
import { incidents, notificationChannels } from '../db/schema';
import { ApiError } from '../errors';
import type { TelegramActions, TelegramActor } from '../notify/telegram/actions';
import { groupIncidents, serverGroupsOf } from '../notify/server-hold';
import { createSilence, type SilenceInput } from '../silences/silences';
import { acknowledgeIncident, type IncidentActor } from './acknowledge';

const GONE = { done: false, text: 'This channel no longer exists in Node Monitor.' };
const UP_AGAIN = 'This server is up again; nothing was changed.';
const ALL_ACKNOWLEDGED = 'Every open incident of this server is already acknowledged.';

/** `name` is "@username" when the Telegram user has one, else a first name or the numeric id. */
const actorOf = (by: TelegramActor): IncidentActor => ({
    kind: 'telegram',
    userId: by.telegramUserId,
    username: by.name.startsWith('@') ? by.name : null,
});

/**
 * What the Telegram buttons do: acknowledge the incident, or silence the monitor for an hour; under a SERVER DOWN,
 * acknowledge every open incident of the server, or silence the server. All act within the company that owns the
 * channel the button was pressed in, so a button can never reach another company's rows.
 */
export function telegramActions(ctx: Pick<AppContext, 'db' | 'events' | 'silences'>): TelegramActions {
    const companyOf = async (by: TelegramActor) => {
        const [row] = await ctx.db
            .select({ companyId: notificationChannels.companyId })
            .from(notificationChannels)
            .where(eq(notificationChannels.id, by.channelId));
        return row?.companyId ?? null;
    };
    /**
     * The open incidents a SERVER DOWN named (its alert rows keep the group's key; `firstIncidentId` is the one its
     * buttons carry), within the channel's company; or why there is nothing to act on.
     */
    const outageOf = async (companyId: number, serverId: number, firstIncidentId: string) => {
        const key = (await serverGroupsOf(ctx.db, [firstIncidentId])).get(firstIncidentId);
        const named = key ? await groupIncidents(ctx.db, key) : [firstIncidentId];
        const rows = await ctx.db
            .select({
                id: incidents.id,
                status: incidents.status,
                acknowledgedAt: incidents.acknowledgedAt,
                server: incidents.serverName,
                monitor: incidents.monitorName,
            })
            .from(incidents)
            .where(
                and(
                    inArray(incidents.id, named.length ? named : [firstIncidentId]),
                    eq(incidents.companyId, companyId),
                    eq(incidents.serverId, serverId)
                )
            );
        if (rows.length === 0) return 'Incident not found';
        const open = rows.filter((r) => r.status === 'open').sort((a, b) => named.indexOf(a.id) - named.indexOf(b.id));
        // The buttons outlive the outage they were sent for; a later one is acted on from its own message.
        return open.length ? open : UP_AGAIN;
    };
    const silence = async (
        target: Pick<SilenceInput, 'monitor_id' | 'server_id'>,
        minutes: number,
        by: TelegramActor
    ) => {
        const companyId = await companyOf(by);
        if (companyId === null) return GONE;
        try {
            const made = await createSilence(
                ctx,
                companyId,
                {
                    ...target,
                    ends_at: new Date(Date.now() + minutes * 60_000).toISOString(),
                    reason: `Silenced from Telegram by ${by.name}`,
                },
                { name: `Telegram ${by.name}` }
            );
            return { done: true, text: `Silenced until ${made.ends_at.slice(11, 16)} UTC by ${by.name}.` };
        } catch (err) {
            if (err instanceof ApiError) return { done: false, text: err.message };
            throw err;
        }
    };
    return {
        async acknowledge(incidentId, by) {
            const companyId = await companyOf(by);
            if (companyId === null) return GONE;
            const outcome = await acknowledgeIncident(ctx.db, incidentId, actorOf(by), { scope: companyId });
            if (!outcome.ok) return { done: outcome.status === 409, text: outcome.message };
            return { done: true, text: `Acknowledged by ${by.name}. Reminders for this incident stop.` };
        },
        silence: (monitorId, minutes, by) => silence({ monitor_id: monitorId }, minutes, by),
        async acknowledgeServer(serverId, firstIncidentId, by) {
            const companyId = await companyOf(by);
            if (companyId === null) return GONE;
            const outage = await outageOf(companyId, serverId, firstIncidentId);
            if (typeof outage === 'string') return { done: outage === UP_AGAIN, text: outage };
            const todo = outage.filter((o) => o.acknowledgedAt === null);
            const server = outage[0]?.server ?? `#${serverId}`;
            const note = `SERVER DOWN ${server}: ${outage.map((o) => o.monitor).join(', ')}`;
            let acknowledged = 0;
            for (const { id } of todo) {
                // The channels had one SERVER DOWN, so they get one ACKNOWLEDGED: the first acknowledgement's.
                const tell = acknowledged === 0;
                const outcome = await acknowledgeIncident(ctx.db, id, actorOf(by), { scope: companyId, note, tell });
                if (outcome.ok) acknowledged++;
            }
            if (acknowledged === 0) return { done: true, text: ALL_ACKNOWLEDGED };
            const what = acknowledged === 1 ? '1 incident' : `${acknowledged} incidents`;
            return { done: true, text: `Acknowledged ${what} of ${server} by ${by.name}. Reminders for them stop.` };
        },
        async silenceServer(serverId, firstIncidentId, minutes, by) {
            const companyId = await companyOf(by);
            if (companyId === null) return GONE;
            const outage = await outageOf(companyId, serverId, firstIncidentId);
            if (typeof outage === 'string') return { done: outage === UP_AGAIN, text: outage };
            return silence({ server_id: serverId }, minutes, by);
        },
    };
}
