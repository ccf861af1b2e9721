import { EventEmitter } from 'node:events';

/** Internal events (docs/spec.md §3); the engine subscribes to apply API changes without a restart. */
export const EVENT_NAMES = [
    'COMPANY_CREATED',
    'COMPANY_UPDATED',
    'COMPANY_DELETED',
    'USER_CREATED',
    'USER_UPDATED',
    'USER_DELETED',
    'CONFIGURATION_CREATED',
    'CONFIGURATION_UPDATED',
    'CONFIGURATION_DELETED',
    'SERVER_CREATED',
    'SERVER_UPDATED',
    'SERVER_DELETED',
    'SERVICE_CREATED',
    'SERVICE_UPDATED',
    'SERVICE_DELETED',
    'MONITOR_CREATED',
    'MONITOR_UPDATED',
    'MONITOR_DELETED',
    'NOTIFICATION_CHANNEL_CREATED',
    'NOTIFICATION_CHANNEL_UPDATED',
    'NOTIFICATION_CHANNEL_DELETED',
    'NOTIFICATION_CHANNEL_ASSOCIATED',
    'NOTIFICATION_CHANNEL_DISASSOCIATED',
    'NOTIFICATION_CHANNEL_TESTED',
    'NOTIFICATION_SENT',
    'API_TOKEN_CREATED',
    'API_TOKEN_DELETED',
    'SILENCE_CREATED',
    'SILENCE_ENDED',
    'MAINTENANCE_WINDOW_CREATED',
    'MAINTENANCE_WINDOW_UPDATED',
    'MAINTENANCE_WINDOW_DELETED',
    'MAINTENANCE_WINDOW_ENDED',
    'STATUS_PAGE_CREATED',
    'STATUS_PAGE_UPDATED',
    'STATUS_PAGE_DELETED',
    'INCIDENT_UPDATE_POSTED',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export interface AppEvent {
    name: EventName;
    configurationId?: number;
    serverId?: number;
    monitorId?: number;
    channelId?: number;
}

export class EventBus {
    private readonly emitter = new EventEmitter();

    emit(event: AppEvent): void {
        this.emitter.emit('event', event);
    }

    /** Returns the function that unsubscribes. */
    subscribe(listener: (event: AppEvent) => void): () => void {
        this.emitter.on('event', listener);
        return () => this.emitter.off('event', listener);
    }
}
