import type { MaintenanceWindow } from '../../../common/silences';
import { formatDateTime } from '../../ui/format';

/** "Mon 02:00 – 04:00 weekly, next …" or "from … to …", in the browser's time zone. */
export function windowWhen(w: MaintenanceWindow): string {
    const next = `${formatDateTime(w.next_starts_at)} – ${formatDateTime(w.next_ends_at)}`;
    if (!w.repeat_weekly) return next;
    const day = new Date(w.starts_at).toLocaleDateString(undefined, { weekday: 'long' });
    return `Every ${day}; ${w.active ? 'now' : 'next'}: ${next}`;
}

export const targetLabel = (t: MaintenanceWindow['target'] | { type: string; name: string }) =>
    `${t.type === 'configuration' ? 'Configuration' : t.type === 'server' ? 'Server' : 'Monitor'} ${t.name}`;
