import type { Monitor } from '../../common/entities';
import type { ActiveSilences } from './active';

/** Adds `silenced_until` and `silence_reason` to the monitors a silence or an active window covers now. */
export function markSilenced<T extends Monitor>(silences: ActiveSilences, monitors: T[], nowMs = Date.now()): T[] {
    return monitors.map((m) => {
        const cover = silences.coverOf(
            { id: m.id, serverId: m.server_id, configurationId: m.configuration_id, type: m.type },
            nowMs
        );
        return cover ? { ...m, silenced_until: new Date(cover.until).toISOString(), silence_reason: cover.reason } : m;
    });
}
