import { eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { notificationChannels } from '../db/schema';
import { ApiError } from '../errors';
import type { TelegramActions, TelegramActor } from '../notify/telegram/actions';
import { createSilence } from '../silences/silences';
import { acknowledgeIncident } from './acknowledge';

/**
 * What the Telegram buttons do: acknowledge the incident, or silence the monitor for an hour. Both act within the
 * company that owns the channel the button was pressed in, so a button can never reach another company's rows.
 */
export function telegramActions(ctx: Pick<AppContext, 'db' | 'events' | 'silences'>): TelegramActions {
    const companyOf = async (by: TelegramActor) => {
        const [row] = await ctx.db
            .select({ companyId: notificationChannels.companyId })
            .from(notificationChannels)
            .where(eq(notificationChannels.id, by.channelId));
        return row?.companyId ?? null;
    };
    return {
        async acknowledge(incidentId, by) {
            const companyId = await companyOf(by);
            if (companyId === null) return { done: false, text: 'This channel no longer exists in Node Monitor.' };
            // `name` is "@username" when the user has one, else a first name or the numeric id.
            const username = by.name.startsWith('@') ? by.name : null;
            const outcome = await acknowledgeIncident(
                ctx.db,
                incidentId,
                { kind: 'telegram', userId: by.telegramUserId, username },
                { scope: companyId }
            );
            if (!outcome.ok) return { done: outcome.status === 409, text: outcome.message };
            return { done: true, text: `Acknowledged by ${by.name}. Reminders for this incident stop.` };
        },
        async silence(monitorId, minutes, by) {
            const companyId = await companyOf(by);
            if (companyId === null) return { done: false, text: 'This channel no longer exists in Node Monitor.' };
            try {
                const silence = await createSilence(
                    ctx,
                    companyId,
                    {
                        monitor_id: monitorId,
                        ends_at: new Date(Date.now() + minutes * 60_000).toISOString(),
                        reason: `Silenced from Telegram by ${by.name}`,
                    },
                    { name: `Telegram ${by.name}` }
                );
                return { done: true, text: `Silenced until ${silence.ends_at.slice(11, 16)} UTC by ${by.name}.` };
            } catch (err) {
                if (err instanceof ApiError) return { done: false, text: err.message };
                throw err;
            }
        },
    };
}
