import { randomUUID } from 'node:crypto';
import type { ReadResult, Verdict } from './verdict';
import type { MonitorTarget } from './targets';
import type { HoldHook } from './upgrade-hold';
import type { AlertState, ChainIncident, Notification, Transition } from './transitions';
import { formatDuration, INITIAL_ALERT_STATE } from './transitions';

/** A node counts towards its chain's picture while it answered within this time. */
const NODE_FRESH_MS = 5 * 60_000;
/** One node standing still is that node's problem; the chain has halted only when several stand still together. */
const MIN_NODES = 2;
/** After blocks resume, a node still stuck this long is alerted on its own: it did not follow the chain. */
const RESUME_GRACE_MS = 5 * 60_000;
const FORGET_MS = 24 * 3600_000;

interface ChainView {
    maxHeight: number;
    /** Our clock when the highest height seen on the chain last rose. */
    advancedAt: number;
    /** Server id → its last answer. */
    nodes: Map<number, { height: number; at: number }>;
}

/** What a blockCheck reading tells of its chain: the height, and the chain id heights are pooled by. */
interface ChainHeight {
    height: number;
    network?: string;
}

export interface Halt {
    height: number;
    since: number;
}

/**
 * The pool a node's heights count towards: its company's nodes that report the same chain id. Nothing another
 * company watches (nor the free-text chain name anyone types) can make a company's node look part of a halt.
 */
export const chainPool = (companyId: number, network: string): string => `${companyId}/${network}`;

/**
 * Chain-halt inhibition (reliability item R14). When a chain stops, every node of it stops, and every blockCheck
 * would alert for what is one fact. Heights are pooled per company and per chain id as the nodes report it (see
 * `chainPool`); when at least two nodes of a pool stand still at the highest of them, the chain has halted. Then a
 * configuration gets one CHAIN STALLED message, the alerts, reminders and recoveries of its blockChecks standing at
 * the halt height are held back (their audit trail is kept), and one CHAIN RESUMED message ends it when the first of
 * its nodes makes progress again. A node that does not follow the chain within five minutes is alerted on its own.
 *
 * The open incident is kept in the alert state of each member monitor, so a restart continues it; the member that
 * ends it records that, so a restart does not end it twice.
 */
export class ChainHalts {
    private readonly chains = new Map<string, ChainView>();
    /** Open incident per configuration id. */
    private readonly open = new Map<number, ChainIncident>();
    /** Ended incidents by id → when they ended. */
    private readonly ended = new Map<string, number>();
    /** Incidents whose chain was first seen moving again, by id → when. */
    private readonly resumeSeen = new Map<string, number>();

    /** `hold` is asked first about each blockCheck (upgrade-hold.ts: a planned upgrade height is no outage). */
    constructor(private readonly hold?: HoldHook) {}

    /** Learns from saved states which incidents already ended. */
    restore(states: Iterable<AlertState>): void {
        for (const s of states) if (s.chainEnded) this.ended.set(s.chainEnded.id, s.chainEnded.at);
    }

    /**
     * The halt of the chain of `pool` (a `chainPool` key) now, or null. Halted means: at least two nodes answered, later than `graceMs` after the
     * highest height was first seen, that they still stand at it. Nodes polled rarely therefore cannot make a node
     * that stopped alone look like a halted chain: it takes fresh answers from others that they stopped too.
     */
    haltOf(pool: string, nowMs: number, graceMs: number): Halt | null {
        const view = this.chains.get(pool);
        if (!view) return null;
        let standing = 0;
        for (const [server, node] of view.nodes) {
            if (nowMs - node.at >= NODE_FRESH_MS) view.nodes.delete(server);
            else if (node.height >= view.maxHeight - 1 && node.at - view.advancedAt > graceMs) standing++;
        }
        return standing >= MIN_NODES ? { height: view.maxHeight, since: view.advancedAt } : null;
    }

    /** Adjusts what a blockCheck's transition sends, given the chain's state. */
    adjust(
        target: MonitorTarget,
        reading: ReadResult<unknown>,
        verdict: Verdict,
        graceMs: number,
        prev: AlertState,
        next: Transition,
        nowMs: number
    ): Transition {
        const out = this.decide(target, reading, verdict, graceMs, prev, next, nowMs);
        // Kept for a day, not just until the next check: members that have not run yet may be restored after a restart.
        const ended = out.state.chainEnded ?? prev.chainEnded;
        if (!ended || nowMs - ended.at > FORGET_MS) return out;
        return { ...out, state: { ...out.state, chainEnded: ended } };
    }

    private decide(
        target: MonitorTarget,
        reading: ReadResult<unknown>,
        verdict: Verdict,
        graceMs: number,
        prev: AlertState,
        next: Transition,
        nowMs: number
    ): Transition {
        const chain = target.configuration.chain;
        const companyId = target.configuration.companyId;
        const measured = reading.ok ? (reading.value as ChainHeight) : null;
        const height = measured ? measured.height : null;
        const network = measured?.network ? measured.network : null;
        const pool = network !== null ? chainPool(companyId, network) : null;
        if (height !== null && pool !== null && target.server) this.observe(pool, target.server.id, height, nowMs);
        const upgrade = this.hold?.(target, height, verdict, prev, next, nowMs);
        if (upgrade) return upgrade;
        const alerting =
            next.state.status === 'alerting' || (next.state.status === 'flapping' && next.state.failing === true);
        const erring = alerting && verdict.level === 'error';
        const configId = target.configuration.id;

        // A node whose own incident was already announced keeps it, recovery included: joining would swallow that.
        const ownIncident = !prev.chain && prev.status !== 'normal' && prev.status !== 'pending';
        // Asked only of a node in Error: the scan over the chain's nodes stays off the path of healthy checks.
        const halt =
            erring && !ownIncident && height !== null && pool !== null ? this.haltOf(pool, nowMs, graceMs) : null;
        if (halt !== null && height !== null && height >= halt.height - 1) {
            const known = this.incidentOf(configId, prev.chain, halt.height);
            const incident = known ?? {
                id: randomUUID(),
                height: halt.height,
                since: halt.since,
                reporter: target.id,
                network: network ?? undefined,
            };
            this.open.set(configId, incident);
            const notification: Notification | null = !known
                ? {
                      kind: 'chain-stalled',
                      incidentId: incident.id,
                      since: incident.since,
                      message: `No new block after height ${incident.height} on any watched node of ${chain}; alerts of this configuration's nodes are held back until blocks resume`,
                  }
                : incident.reporter === target.id && next.notification?.kind === 'reminder'
                  ? {
                        kind: 'reminder',
                        incidentId: incident.id,
                        since: incident.since,
                        message: `The chain is still stalled at height ${incident.height}`,
                    }
                  : null;
            return { ...next, state: { ...next.state, chain: incident }, notification, change: held(next.change) };
        }
        const member = prev.chain;
        if (!member) return next;

        // The node is past the halt height: the first member of the configuration to get there ends the incident.
        // Its own alert state may stay open a while (miss tolerance); it stays a member until that closes silently.
        // A member that is not alerting any more leaves with a fresh state: what it would still send (a recovery, the
        // end of a flapping episode) belongs to an incident that was never announced on its own.
        const left = alerting ? { ...next.state, chain: member } : settled(next.state, verdict);
        if (height !== null && height > member.height && !this.ended.has(member.id)) {
            this.end(configId, member.id, nowMs);
            return {
                ...next,
                state: { ...left, chainEnded: { id: member.id, at: nowMs } },
                notification: resumed(member, nowMs, `Blocks resume after height ${member.height}`),
                change: next.change,
            };
        }
        const endedAt = this.ended.get(member.id);
        const memberNetwork = member.network ?? network;
        const movedOn =
            memberNetwork !== null &&
            (this.chains.get(chainPool(companyId, memberNetwork))?.maxHeight ?? 0) > member.height;
        if (endedAt === undefined && movedOn) {
            // The chain moves again but none of this configuration's nodes did: after a grace, say so and let the
            // nodes alert on their own.
            const seen = this.resumeSeen.get(member.id) ?? nowMs;
            this.resumeSeen.set(member.id, seen);
            if (nowMs - seen >= RESUME_GRACE_MS) {
                this.end(configId, member.id, nowMs);
                return {
                    ...next,
                    state: { ...left, chainEnded: { id: member.id, at: nowMs } },
                    notification: resumed(
                        member,
                        nowMs,
                        `Blocks resume on the chain after height ${member.height}, but this configuration's nodes did not follow within ${formatDuration(RESUME_GRACE_MS)}`
                    ),
                    change: next.change,
                };
            }
        }
        if (endedAt !== undefined) {
            if (!alerting) return { ...next, state: left, notification: null };
            const since = this.resumeSeen.get(member.id) ?? endedAt;
            // Only a node still at (or below) the halt height, or unreadable, failed to follow; one past it is
            // working off the misses of the halt (its miss tolerance period) and recovers on its own.
            const stuck = height === null || height <= member.height;
            if (erring && stuck && nowMs - since >= RESUME_GRACE_MS) {
                const incidentId = next.state.incidentId ?? member.id;
                return {
                    ...next,
                    state: { ...next.state, chain: undefined, lastNotifiedAt: nowMs },
                    notification: {
                        kind: 'alert',
                        incidentId,
                        since: next.state.since ?? member.since,
                        message: `Did not follow the chain when its blocks resumed: ${verdict.message ?? 'no message'}`,
                    },
                };
            }
        }
        return { ...next, state: { ...next.state, chain: member }, notification: null, change: held(next.change) };
    }

    private observe(pool: string, server: number, height: number, nowMs: number): void {
        const view = this.chains.get(pool) ?? { maxHeight: height, advancedAt: nowMs, nodes: new Map() };
        if (height > view.maxHeight) {
            view.maxHeight = height;
            view.advancedAt = nowMs;
        }
        view.nodes.set(server, { height, at: nowMs });
        this.chains.set(pool, view);
    }

    /**
     * The configuration's open incident for a halt at `haltHeight`, also when only a member's saved state still knows
     * it (after a restart). One left open at a lower height (its members were deleted before blocks resumed) is over.
     */
    private incidentOf(
        configId: number,
        member: ChainIncident | undefined,
        haltHeight: number
    ): ChainIncident | undefined {
        const current = (i: ChainIncident | undefined) => i && !this.ended.has(i.id) && i.height >= haltHeight - 1;
        const open = this.open.get(configId);
        if (current(open)) return open;
        if (open) this.open.delete(configId);
        return current(member) ? member : undefined;
    }

    private end(configId: number, id: string, nowMs: number): void {
        if (this.open.get(configId)?.id === id) this.open.delete(configId);
        this.ended.set(id, nowMs);
        // Members leave an ended incident on their next checks; a day later nobody refers to it.
        for (const [old, at] of this.ended) if (nowMs - at > FORGET_MS) this.ended.delete(old);
        for (const [old, at] of this.resumeSeen) if (nowMs - at > FORGET_MS) this.resumeSeen.delete(old);
    }
}

/** A fresh alert state that keeps the flap history. */
const settled = (state: AlertState, verdict: Verdict): AlertState => ({
    ...INITIAL_ALERT_STATE,
    status: verdict.level === 'warning' ? 'pending' : 'normal',
    openedAt: state.openedAt,
    changedAt: state.changedAt,
});

const held = (change: string | null) => (change ? `${change} (held back: the chain is stalled)` : null);

const resumed = (incident: ChainIncident, nowMs: number, message: string): Notification => ({
    kind: 'chain-resumed',
    incidentId: incident.id,
    since: incident.since,
    durationMs: nowMs - incident.since,
    message,
});
