import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../context';
import { incidents, notificationChannels } from '../db/schema';
import { ApiError } from '../errors';
import type { TelegramActions, TelegramActor } from '../notify/telegram/actions';
import { createSilence, type SilenceInput } from '../silences/silences';
import { acknowledgeIncident, type IncidentActor } from './acknowledge';

const GONE = { done: false, text: 'This channel no longer exists in Node Monitor.' };

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
            const mine = and(eq(incidents.companyId, companyId), eq(incidents.status, 'open'));
            const [outage] = await ctx.db
                .select({ id: incidents.id })
                .from(incidents)
                .where(and(mine, eq(incidents.id, firstIncidentId), eq(incidents.serverId, serverId)));
            // The button outlives the outage it was sent for; a later one is acknowledged from its own message.
            if (!outage) return { done: true, text: 'This server is up again; nothing was changed.' };
            const open = await ctx.db
                .select({ id: incidents.id, server: incidents.serverName, monitor: incidents.monitorName })
                .from(incidents)
                .where(
                    and(
                        mine,
                        eq(incidents.kind, 'monitor'),
                        eq(incidents.serverId, serverId),
                        isNull(incidents.acknowledgedAt)
                    )
                );
            if (open.length === 0)
                return { done: true, text: 'Every open incident of this server is already acknowledged.' };
            const server = open[0]?.server ?? `#${serverId}`;
            const note = `SERVER DOWN ${server}: ${open.map((o) => o.monitor).join(', ')}`;
            let acknowledged = 0;
            for (const { id } of open) {
                // The channels had one SERVER DOWN, so they get one ACKNOWLEDGED: the first acknowledgement's.
                const tell = acknowledged === 0;
                const outcome = await acknowledgeIncident(ctx.db, id, actorOf(by), { scope: companyId, note, tell });
                if (outcome.ok) acknowledged++;
            }
            const what = acknowledged === 1 ? '1 incident' : `${acknowledged} incidents`;
            return { done: true, text: `Acknowledged ${what} of ${server} by ${by.name}. Reminders for them stop.` };
        },
        silenceServer: (serverId, minutes, by) => silence({ server_id: serverId }, minutes, by),
    };
}
