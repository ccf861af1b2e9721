/** Who pressed a button: the Telegram user, as the incident's timeline names them. */
export interface TelegramActor {
    telegramUserId: number;
    /** @username, else the first name, else the numeric id. */
    name: string;
    channelId: number;
}

/** What an action did, told to the person who pressed the button; `done` removes the keyboard. */
export interface ActionOutcome {
    done: boolean;
    text: string;
}

/**
 * What the Telegram buttons do, injected into the poller: incidents and silences live in their own modules, so the
 * poller only checks who pressed what and hands it on here.
 */
export interface TelegramActions {
    acknowledge(incidentId: string, by: TelegramActor): Promise<ActionOutcome>;
    silence(monitorId: number, minutes: number, by: TelegramActor): Promise<ActionOutcome>;
    /** Under a SERVER DOWN (its buttons carry its first incident): the open incidents it named. */
    acknowledgeServer(serverId: number, firstIncidentId: string, by: TelegramActor): Promise<ActionOutcome>;
    /** Under a SERVER DOWN: the whole server, while an incident it named is open. */
    silenceServer(
        serverId: number,
        firstIncidentId: string,
        minutes: number,
        by: TelegramActor
    ): Promise<ActionOutcome>;
}

/** Until incidents and silences exist: every press is answered, and nothing changes. */
export const ACTIONS_NOT_AVAILABLE: TelegramActions = {
    acknowledge: async () => ({ done: false, text: 'Acknowledging from Telegram is not available yet.' }),
    silence: async () => ({ done: false, text: 'Silencing from Telegram is not available yet.' }),
    acknowledgeServer: async () => ({ done: false, text: 'Acknowledging from Telegram is not available yet.' }),
    silenceServer: async () => ({ done: false, text: 'Silencing from Telegram is not available yet.' }),
};
