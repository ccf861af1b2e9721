import type { ValidatorGauges } from '../engine/check';
import { CHECKS } from '../engine/checks';
import type { Engine } from '../engine/engine';
import { type ChainFigures, type MountUse, valoperOf } from '../engine/shared-figures';

/** Label value as the text format wants it: backslash, double quote and newline escaped. */
const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labels = (l: Record<string, string>) =>
    `{${Object.entries(l)
        .map(([k, v]) => `${k}="${esc(v)}"`)
        .join(',')}}`;

const FAMILIES = {
    height: ['node_monitor_chain_source_height', "Latest block height of each source of a configuration's chain."],
    blockTime: [
        'node_monitor_chain_source_latest_block_timestamp_seconds',
        'Time of the latest block of each source of the chain, in seconds since the epoch (time() minus it is its lag).',
    ],
    interval: [
        'node_monitor_chain_source_block_interval_seconds',
        "Seconds per block as each source's blocks show it.",
    ],
    missed: [
        'node_monitor_validator_missed_blocks_in_window',
        "The validator's missed blocks in the current slashing window (x/slashing missed_blocks_counter).",
    ],
    budgetLeft: [
        'node_monitor_validator_jail_budget_left_blocks',
        'Blocks the validator may still miss in the slashing window before it is jailed.',
    ],
    rankMargin: [
        'node_monitor_validator_active_set_rank_margin',
        "Seats between the validator's rank and max_validators (0: the last active seat; negative: out of the set).",
    ],
    disk: ['node_monitor_disk_used_percent', 'Used share of each mountpoint the disk-space monitors read, in percent.'],
} as const;
type Family = keyof typeof FAMILIES;

/** A monitor the page reports, as the chain families label what its checks read. */
export interface FigureScope {
    monitorId: number;
    company: string;
    configurationId: number;
    configuration: string;
    chain: string;
    serverId: number | null;
    server: string;
}

/**
 * Chain and validator figures for Grafana: per chain source, per validator (its slashing-window and active-set
 * monitors) and per disk mountpoint, labelled from `scope`; figures of a monitor, configuration or server that no
 * monitor of `scope` is of are left out.
 */
export function renderChainFamilies(scope: Iterable<FigureScope>, figures: ChainFigures): string {
    const out = Object.fromEntries(
        Object.entries(FAMILIES).map(([k, [name, help]]) => [k, [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`]])
    ) as Record<Family, string[]>;
    const put = (f: Family, l: Record<string, string>, v: number) => out[f].push(`${FAMILIES[f][0]}${labels(l)} ${v}`);
    const configurations = new Map<number, { company: string; configuration: string; chain: string }>();
    const servers = new Map<number, { company: string; configuration: string; server: string }>();
    for (const m of scope) {
        const base = { company: m.company, configuration: m.configuration, chain: m.chain };
        configurations.set(m.configurationId, base);
        if (m.serverId !== null)
            servers.set(m.serverId, { company: m.company, configuration: m.configuration, server: m.server });
        const v = figures.validators.get(m.monitorId);
        if (!v) continue;
        for (const [family, value] of Object.entries(v.gauges))
            if (typeof value === 'number') put(family as Family, { ...base, valoper: v.valoper }, value);
    }
    for (const [id, seen] of figures.sources) {
        const base = configurations.get(id);
        if (!base) continue;
        for (const s of seen) {
            const l = { ...base, source: s.name };
            if (s.height !== null) put('height', l, s.height);
            if (s.blockTimeMs !== null) put('blockTime', l, s.blockTimeMs / 1000);
            if (s.blockIntervalMs !== null) put('interval', l, Math.round(s.blockIntervalMs) / 1000);
        }
    }
    for (const [serverId, mounts] of figures.disks) {
        const base = servers.get(serverId);
        if (base) for (const d of mounts) put('disk', { ...base, mountpoint: d.mountpoint }, d.usedPercent);
    }
    // A family is written with its samples only: promtool accepts empty ones, but they say nothing.
    return Object.values(out)
        .filter((lines) => lines.length > 2)
        .map((lines) => `${lines.join('\n')}\n`)
        .join('');
}

/** The chain families from what this process's engine last read. `companyOf` names a company id. */
export function chainFamilies(engine: Engine, companyOf: (id: number) => string): string {
    const scope: FigureScope[] = [];
    const validators = new Map<number, { valoper: string; gauges: ValidatorGauges }>();
    for (const { target } of engine.monitors()) {
        const c = target.configuration;
        scope.push({
            monitorId: target.id,
            company: companyOf(c.companyId),
            configurationId: c.id,
            configuration: c.name,
            chain: c.chain,
            serverId: target.server?.id ?? null,
            server: target.server?.name ?? '',
        });
        const gauges = CHECKS[target.type].validatorGauges;
        if (gauges)
            validators.set(target.id, { valoper: valoperOf(target), gauges: gauges(engine.memoryOf(target.id)) });
    }
    const disks = new Map<number, MountUse[]>();
    for (const { serverId, mountpoint, usedPercent } of engine.disks.mountpoints())
        disks.set(serverId, [...(disks.get(serverId) ?? []), { mountpoint, usedPercent }]);
    return renderChainFamilies(scope, { validators, sources: engine.chainSources(), disks });
}
