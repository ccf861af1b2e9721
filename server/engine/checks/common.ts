import { defaultSettings, type MonitorType } from '../../../common/monitor-types';
import type { ServiceType } from '../../../common/service-types';
import type { CheckContext } from '../check';
import type { Verdict } from '../verdict';

export { errorText, formatDuration, formatTime } from '../texts';

/** Helpers shared by the check types: settings with catalogue defaults, service lookup, read-failure handling. */

/** A numeric setting, falling back to the catalogue default when missing or not a number. */
export function numberSetting(type: MonitorType, settings: Record<string, unknown>, key: string): number {
    const raw = settings[key];
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
    if (Number.isFinite(n)) return n;
    const def = defaultSettings(type)[key];
    return typeof def === 'number' ? def : 0;
}

/** A number fit for a chart: finite, else null. */
export const finiteOrNull = (n: unknown): number | null => (typeof n === 'number' && Number.isFinite(n) ? n : null);

export function stringSetting(settings: Record<string, unknown>, key: string): string | null {
    const raw = settings[key];
    return typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : null;
}

export function alertSleepFor(type: MonitorType) {
    return (settings: Record<string, unknown>) =>
        Math.max(1, numberSetting(type, settings, 'alert_sleep_duration_minutes'));
}

export function sleepIntervalFor(type: MonitorType, key = 'sleep_duration_seconds') {
    return (settings: Record<string, unknown>) => Math.max(1, numberSetting(type, settings, key));
}

export function serviceAddress(ctx: CheckContext, type: ServiceType): string | null {
    return ctx.services.find((s) => s.type === type)?.address ?? null;
}

/** The address of the service a check reads, or an error naming what to add. */
export function requireService(ctx: CheckContext, type: ServiceType): string {
    const address = serviceAddress(ctx, type);
    if (address) return address;
    const server = ctx.server ? `Server ${ctx.server.name}` : 'The monitor has no server and so';
    throw new Error(`${server} has no enabled ${type} service; add one on the server page`);
}

export function requireValoper(ctx: CheckContext): string {
    const valoper = stringSetting(ctx.monitor.settings, 'valoper_address');
    if (!valoper) throw new Error('The monitor has no valoper_address setting');
    return valoper;
}

/** Consecutive read failures after which a check that cannot read its node reports Error. */
export const READ_FAILURE_LIMIT = 3;

/** State kept so a failed read does not flip an Error to Warning (which would send a recovery, then a new alert). */
export interface HoldState {
    readFailures: number;
    /** The verdict of the last successful reading. */
    judged: Verdict | null;
}

/**
 * Verdict for a failed read: Warning at first, Error after READ_FAILURE_LIMIT in a row. While the last judged
 * verdict was Error, it stays Error: one unreadable poll is not a recovery.
 */
export function readFailureVerdict(hold: HoldState | undefined, error: string): { hold: HoldState; verdict: Verdict } {
    const readFailures = (hold?.readFailures ?? 0) + 1;
    const judged = hold?.judged ?? null;
    let verdict: Verdict;
    if (readFailures >= READ_FAILURE_LIMIT) {
        verdict = { level: 'error', message: `${error} (${readFailures} checks in a row could not read the node)` };
    } else if (judged?.level === 'error') {
        verdict = {
            level: 'error',
            message: `${judged.message ?? 'Error'}; the last check could not read the node: ${error}`,
        };
    } else {
        verdict = { level: 'warning', message: error };
    }
    return { hold: { readFailures, judged }, verdict };
}

export function judgedHold(verdict: Verdict): HoldState {
    return { readFailures: 0, judged: verdict };
}

export const ok = (): Verdict => ({ level: 'ok', message: null });
