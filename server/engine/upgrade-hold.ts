import { randomUUID } from 'node:crypto';
import type { Verdict } from './verdict';
import type { MonitorTarget } from './targets';
import type { AlertState, Transition } from './transitions';

/**
 * Upgrade holds: at a planned upgrade height H every node of the chain stops at H on purpose (protocols.md §10.6),
 * and every blockCheck would page for it. While an upgradeWatch of a configuration knows a plan at H, the chain-halt
 * code (chain-halt.ts) asks this hook first about each blockCheck of that configuration:
 *
 * - a node standing at H (or unreadable once H was reached) within `grace_minutes` of the first node reaching it is
 *   held: its alert state does not move, and the configuration gets one UPGRADE HEIGHT REACHED message instead;
 * - once a node of the configuration is past H, the chain has resumed: a node still at H alerts as usual, and a held
 *   node that moved on stays held while it works off the misses of the halt (its miss tolerance);
 * - when the grace runs out with the chain still stopped, nothing is held and the chain-stall alert goes out.
 *
 * Kept in memory: after a restart the grace starts again from the first node seen at H.
 */

interface ConfigPlan {
    name: string;
    height: number;
    graceMs: number;
    /** Highest height a blockCheck of the configuration read since the plan was seen. */
    maxHeight: number;
    /** When the first node was seen at the plan's height. */
    reachedAt: number | null;
    announced: boolean;
}

export type HoldHook = (
    target: MonitorTarget,
    height: number | null,
    verdict: Verdict,
    prev: AlertState,
    next: Transition,
    nowMs: number
) => Transition | null;

export class UpgradeHolds {
    private readonly plans = new Map<number, ConfigPlan>();
    /** blockCheck monitor id → the plan it is held at. */
    private readonly held = new Map<number, { name: string; height: number }>();

    /** The plan a blockCheck is held at, for its row ("Waiting at upgrade height H (plan NAME)"); null when none. */
    waitingAt(monitorId: number): { name: string; height: number } | null {
        return this.held.get(monitorId) ?? null;
    }

    /** What the configuration's upgradeWatch read last: its plan, or null when none is scheduled. */
    setPlan(configId: number, plan: { name: string; height: number } | null, graceMs: number, nowMs: number): void {
        const known = this.plans.get(configId);
        if (!plan) {
            // An upgraded node clears the plan before the chain resumes: keep holding until blocks pass H.
            const halting =
                known?.reachedAt != null && known.maxHeight <= known.height && nowMs - known.reachedAt < known.graceMs;
            if (!halting) this.plans.delete(configId);
            return;
        }
        if (known && known.name === plan.name && known.height === plan.height) {
            known.graceMs = graceMs;
            return;
        }
        this.plans.set(configId, { ...plan, graceMs, maxHeight: 0, reachedAt: null, announced: false });
    }

    /** The hook the chain-halt code consults for each blockCheck: a held transition, or null for the usual one. */
    readonly adjust: HoldHook = (target, height, verdict, prev, next, nowMs) => {
        const heldAt = this.held.get(target.id);
        if (heldAt !== undefined && height !== null && height > heldAt.height) {
            // Past the height: the misses of the halt still count until its miss tolerance period passes.
            if (verdict.level === 'error') return hold(prev, null, null);
            this.held.delete(target.id);
            return null;
        }
        const plan = this.plans.get(target.configuration.id);
        if (!plan) {
            this.held.delete(target.id);
            return null;
        }
        if (height !== null) plan.maxHeight = Math.max(plan.maxHeight, height);
        const resumed = plan.maxHeight > plan.height;
        const atHeight = height === null ? plan.reachedAt !== null : height >= plan.height;
        if (resumed || !atHeight) {
            this.held.delete(target.id);
            return null;
        }
        plan.reachedAt ??= nowMs;
        if (nowMs - plan.reachedAt >= plan.graceMs) {
            this.held.delete(target.id);
            return null;
        }
        // Holding is one change of the monitor: told in the audit and the log once, not at every poll.
        const change = this.held.has(target.id)
            ? null
            : `Waiting at upgrade height ${plan.height} (plan ${plan.name}): alerts held back${next.change ? ` (${next.change})` : ''}`;
        this.held.set(target.id, { name: plan.name, height: plan.height });
        if (plan.announced) return hold(prev, change, null);
        plan.announced = true;
        return hold(prev, change, {
            kind: 'upgrade-height',
            incidentId: randomUUID(),
            since: plan.reachedAt,
            message: `The chain ${target.configuration.chain} stopped at height ${plan.height} for the upgrade "${plan.name}"; block alerts of this configuration's nodes are held for ${Math.round(plan.graceMs / 60_000)} min while validators switch to the new binary`,
        });
    };
}

/** A planned stop, not a fault of the target: `expected` keeps its one log line at info. */
const hold = (prev: AlertState, change: string | null, notification: Transition['notification']): Transition => ({
    state: prev,
    notification,
    change,
    expected: true,
});
