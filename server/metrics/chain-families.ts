import { CHECKS } from '../engine/checks';
import type { Engine } from '../engine/engine';

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

/**
 * Chain and validator figures for Grafana, from what the engine last read: per chain source, per validator (its
 * slashing-window and active-set monitors) and per disk mountpoint. `companyOf` names a company id.
 */
export function chainFamilies(engine: Engine, companyOf: (id: number) => string): string {
    const out = Object.fromEntries(
        Object.entries(FAMILIES).map(([k, [name, help]]) => [k, [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`]])
    ) as Record<Family, string[]>;
    const put = (f: Family, l: Record<string, string>, v: number) => out[f].push(`${FAMILIES[f][0]}${labels(l)} ${v}`);
    const configurations = new Map<number, { company: string; configuration: string; chain: string }>();
    const servers = new Map<number, { company: string; configuration: string; server: string }>();
    for (const { target } of engine.monitors()) {
        const c = target.configuration;
        const base = { company: companyOf(c.companyId), configuration: c.name, chain: c.chain };
        configurations.set(c.id, base);
        if (target.server)
            servers.set(target.server.id, { company: base.company, configuration: c.name, server: target.server.name });
        const gauges = CHECKS[target.type].validatorGauges?.(engine.memoryOf(target.id));
        const valoper = typeof target.settings.valoper_address === 'string' ? target.settings.valoper_address : '';
        for (const [family, value] of Object.entries(gauges ?? {})) put(family as Family, { ...base, valoper }, value);
    }
    for (const [id, seen] of engine.chainSources()) {
        const base = configurations.get(id);
        if (!base) continue;
        for (const s of seen) {
            const l = { ...base, source: s.name };
            if (s.height !== null) put('height', l, s.height);
            if (s.blockTimeMs !== null) put('blockTime', l, s.blockTimeMs / 1000);
            if (s.blockIntervalMs !== null) put('interval', l, Math.round(s.blockIntervalMs) / 1000);
        }
    }
    for (const d of engine.disks.mountpoints()) {
        const base = servers.get(d.serverId);
        if (base) put('disk', { ...base, mountpoint: d.mountpoint }, d.usedPercent);
    }
    // A family is written with its samples only: promtool accepts empty ones, but they say nothing.
    return Object.values(out)
        .filter((lines) => lines.length > 2)
        .map((lines) => `${lines.join('\n')}\n`)
        .join('');
}
