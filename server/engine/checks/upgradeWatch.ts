import { createDutyClient, type UpgradePlan } from '../../clients/cosmos-duty';
import type { Check, CheckContext } from '../check';
import type { Verdict } from '../verdict';
import {
    alertSleepFor,
    formatDuration,
    formatTime,
    type HoldState,
    judgedHold,
    numberSetting,
    readFailureVerdict,
    requireService,
    sleepIntervalFor,
} from './common';

/**
 * upgradeWatch: the upgrade module's current plan (protocols.md §10.5). A scheduled plan is a Warning naming the
 * upgrade, its height and its expected time (from the recent block time); a notice goes out once when the plan is
 * first seen and once more an hour before its expected time. The node's application version is read too, so the
 * switch to the new binary shows. What happens at the height (held block alerts) is upgrade-hold.ts.
 */

/** Blocks back over which the average block time is measured. */
const AVERAGE_OVER = 100;
const HOUR = 3_600_000;

export interface UpgradeMeasurement {
    plan: UpgradePlan | null;
    appVersion: string | null;
    latestHeight: number;
    latestTimeMs: number | null;
    /** Average block time over the last blocks, null when it could not be measured. */
    avgBlockMs: number | null;
}

export interface UpgradeSummary {
    plan: UpgradePlan | null;
    appVersion: string | null;
    latestHeight: number;
    etaMs: number | null;
    readAt: number;
}

export interface UpgradeMemory extends HoldState {
    /** `name@height` of the plan notices were sent for, and whether the hour-before one went out. */
    noticed?: { key: string; hourBefore: boolean };
    last?: UpgradeSummary;
}

async function read(ctx: CheckContext): Promise<UpgradeMeasurement> {
    const client = createDutyClient(ctx.http, requireService(ctx, 'rest'), ctx.signal);
    const [plan, latest, appVersion] = await Promise.all([
        client.currentPlan(),
        client.block(),
        client.appVersion().catch(() => null), // the version only enriches the card and the message
    ]);
    let avgBlockMs: number | null = null;
    if (plan && latest.timeMs !== null && latest.height > 1) {
        const back = Math.min(AVERAGE_OVER, latest.height - 1);
        try {
            const old = await client.block(latest.height - back);
            if (old.timeMs !== null && latest.timeMs > old.timeMs) avgBlockMs = (latest.timeMs - old.timeMs) / back;
        } catch {
            // A pruned node: no ETA, the height still says when.
        }
    }
    return { plan, appVersion, latestHeight: latest.height, latestTimeMs: latest.timeMs, avgBlockMs };
}

/** Expected time of the plan's height: the latest block's time plus the blocks to go at the average block time. */
export function upgradeEta(r: UpgradeMeasurement): number | null {
    if (!r.plan || r.avgBlockMs === null || r.latestTimeMs === null) return null;
    return r.latestTimeMs + Math.max(0, r.plan.height - r.latestHeight) * r.avgBlockMs;
}

function describe(r: UpgradeMeasurement, plan: UpgradePlan, eta: number | null, nowMs: number): string {
    const version = r.appVersion ? `; the node runs ${r.appVersion}` : '';
    if (r.latestHeight >= plan.height)
        return `Upgrade "${plan.name}" height ${plan.height} reached: the chain stops there until validators run the new binary${version}`;
    const when =
        eta === null
            ? ''
            : `, expected around ${formatTime(eta)} (in about ${formatDuration(Math.max(0, eta - nowMs))})`;
    return `Upgrade "${plan.name}" scheduled at height ${plan.height}, ${plan.height - r.latestHeight} blocks from now${when}${version}`;
}

export const upgradeWatchCheck: Check<UpgradeMeasurement, UpgradeMemory> = {
    intervalSeconds: sleepIntervalFor('upgradeWatch'),
    alertSleepMinutes: alertSleepFor('upgradeWatch'),

    /** The plan it read is what holds the configuration's blockChecks at the upgrade height (upgrade-hold.ts). */
    settle(shared, { target, reading, memory, next, nowMs }) {
        if (!reading.ok) return next;
        const graceMs = numberSetting('upgradeWatch', target.settings, 'grace_minutes') * 60_000;
        shared.upgradeHolds.setPlan(target.configuration.id, memory?.last?.plan ?? null, graceMs, nowMs);
        return next;
    },

    read,

    evaluate(memory, reading, _settings, nowMs) {
        const m: UpgradeMemory = { readFailures: 0, judged: null, ...memory };
        if (!reading.ok) {
            const { hold, verdict } = readFailureVerdict(m, reading.error);
            return { memory: { ...m, ...hold }, verdict };
        }
        const r = reading.value;
        const eta = upgradeEta(r);
        const last: UpgradeSummary = {
            plan: r.plan,
            appVersion: r.appVersion,
            latestHeight: r.latestHeight,
            etaMs: eta,
            readAt: nowMs,
        };
        if (!r.plan) {
            const verdict: Verdict = { level: 'ok', message: null };
            return { memory: { ...judgedHold(verdict), last }, verdict };
        }
        const message = describe(r, r.plan, eta, nowMs);
        const verdict: Verdict = { level: 'warning', message };
        const key = `${r.plan.name}@${r.plan.height}`;
        const reached = r.latestHeight >= r.plan.height;
        const within = eta !== null && eta - nowMs <= HOUR;
        let noticed = m.noticed;
        let notice: string | null = null;
        if (noticed?.key !== key) {
            noticed = { key, hourBefore: within || reached };
            if (!reached) notice = message;
        } else if (!noticed.hourBefore && (within || reached)) {
            noticed = { key, hourBefore: true };
            if (!reached) notice = message;
        }
        return { memory: { ...judgedHold(verdict), noticed, last }, verdict, notice };
    },
};
