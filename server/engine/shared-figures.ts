import type { SourceSeen } from './chain-sources';
import type { DiskSeen, ValidatorGauges } from './check';
import { CHECKS } from './checks';
import type { MonitorTarget } from './targets';

/** A mountpoint's used share, as the disk family shows it. */
export interface MountUse {
    mountpoint: string;
    usedPercent: number;
}

/** The chain, validator and disk figures a page renders, whichever process read them. */
export interface ChainFigures {
    /** Per monitor whose type has validator gauges: the validator it watches and its figures. */
    validators: ReadonlyMap<number, { valoper: string; gauges: ValidatorGauges }>;
    /** Per configuration, its chain's sources as the latest duty check saw them. */
    sources: ReadonlyMap<number, readonly SourceSeen[]>;
    /** Per server, its mountpoints as the latest disk reading saw them. */
    disks: ReadonlyMap<number, readonly MountUse[]>;
}

/** What one check read for the chain families; each part is kept until `until` (ms) unless a later check replaces it. */
export interface CheckFigures {
    until: number;
    validator?: { monitorId: number; valoper: string; gauges: ValidatorGauges };
    sources?: { configurationId: number; seen: readonly SourceSeen[] };
    disks?: { serverId: number; mounts: readonly MountUse[] };
}

/**
 * How long a check's figures stand without a newer check: three of its intervals, so a late or skipped run does not
 * blank a panel, and at least two minutes.
 */
export const figuresLifeMs = (intervalMs: number) => Math.max(3 * intervalMs, 120_000);

/** The validator a monitor watches, as its figures are labelled. */
export const valoperOf = (t: Pick<MonitorTarget, 'settings'>) =>
    typeof t.settings.valoper_address === 'string' ? t.settings.valoper_address : '';

/** What a check just read for the chain families: its validator gauges, the chain sources it saw, its server's disks. */
export function checkFigures(
    target: MonitorTarget,
    memory: unknown,
    seen: readonly SourceSeen[] | null,
    disks: readonly DiskSeen[] | null,
    until: number
): CheckFigures {
    const gauges = CHECKS[target.type].validatorGauges;
    return {
        until,
        ...(gauges ? { validator: { monitorId: target.id, valoper: valoperOf(target), gauges: gauges(memory) } } : {}),
        ...(seen ? { sources: { configurationId: target.configuration.id, seen } } : {}),
        ...(disks && target.server
            ? {
                  disks: {
                      serverId: target.server.id,
                      mounts: disks.map((d) => ({ mountpoint: d.mountpoint, usedPercent: d.usedPercent })),
                  },
              }
            : {}),
    };
}

/** Hash fields: one per validator monitor, configuration and server, so a newer check replaces the older. */
const validatorField = (monitorId: number) => `v:${monitorId}`;
const sourcesField = (configurationId: number) => `c:${configurationId}`;
const disksField = (serverId: number) => `d:${serverId}`;

/**
 * A check's figures as hash fields and values, `checkedAt|until|json` each: the leading time lets the later of two
 * workers' checks win whichever arrives last, the second lets a reader drop what no worker refreshed.
 */
export function figureEntries(checkedAt: number, f: CheckFigures): [string, string][] {
    const value = (json: unknown) => `${Math.round(checkedAt)}|${Math.round(f.until)}|${JSON.stringify(json)}`;
    const out: [string, string][] = [];
    if (f.validator)
        out.push([validatorField(f.validator.monitorId), value([f.validator.valoper, f.validator.gauges])]);
    if (f.sources)
        out.push([
            sourcesField(f.sources.configurationId),
            value(f.sources.seen.map((s) => [s.name, s.height, s.blockTimeMs, s.blockIntervalMs])),
        ]);
    if (f.disks)
        out.push([disksField(f.disks.serverId), value(f.disks.mounts.map((m) => [m.mountpoint, m.usedPercent]))]);
    return out;
}

/** The figures of a hash of `figureEntries`, leaving out those whose time is past; `expired` names those fields. */
export function readFigures(hash: Record<string, string>, nowMs: number): { figures: ChainFigures; expired: string[] } {
    const validators = new Map<number, { valoper: string; gauges: ValidatorGauges }>();
    const sources = new Map<number, SourceSeen[]>();
    const disks = new Map<number, MountUse[]>();
    const expired: string[] = [];
    for (const [field, entry] of Object.entries(hash)) {
        const m = /^(\d+)\|(\d+)\|(.*)$/s.exec(entry);
        const id = Number(field.slice(2));
        if (!m || Number(m[2]) < nowMs || !Number.isInteger(id)) {
            expired.push(field);
            continue;
        }
        let json: unknown;
        try {
            json = JSON.parse(m[3] ?? '');
        } catch {
            expired.push(field);
            continue;
        }
        if (!Array.isArray(json)) continue;
        if (field.startsWith('v:')) {
            const [valoper, gauges] = json as [string, ValidatorGauges];
            validators.set(id, { valoper: String(valoper), gauges: gauges ?? {} });
        } else if (field.startsWith('c:')) {
            sources.set(
                id,
                (json as [string, number | null, number | null, number | null][]).map(
                    ([name, height, blockTimeMs, blockIntervalMs]) => ({ name, height, blockTimeMs, blockIntervalMs })
                )
            );
        } else if (field.startsWith('d:')) {
            disks.set(
                id,
                (json as [string, number][]).map(([mountpoint, usedPercent]) => ({ mountpoint, usedPercent }))
            );
        }
    }
    return { figures: { validators, sources, disks }, expired };
}

/**
 * The fields of `figures` no monitor in `scope` is of (deleted or disabled since), for a page to drop: a validator
 * monitor's own, and a configuration's or server's once none of its monitors is checked.
 */
export function fieldsOutside(
    scope: Iterable<{ monitorId: number; configurationId: number; serverId: number | null }>,
    figures: ChainFigures
): string[] {
    const [monitors, configurations, servers] = [new Set<number>(), new Set<number>(), new Set<number | null>()];
    for (const m of scope) {
        monitors.add(m.monitorId);
        configurations.add(m.configurationId);
        servers.add(m.serverId);
    }
    return [
        ...[...figures.validators.keys()].filter((id) => !monitors.has(id)).map(validatorField),
        ...[...figures.sources.keys()].filter((id) => !configurations.has(id)).map(sourcesField),
        ...[...figures.disks.keys()].filter((id) => !servers.has(id)).map(disksField),
    ];
}
