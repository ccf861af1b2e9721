import { hostname } from 'node:os';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { AppContext } from '../context';
import {
    companies,
    configurations,
    monitorStates,
    monitors,
    notificationChannels,
    outbox,
    servers,
} from '../db/schema';
import type { Observation } from '../engine/engine';
import { fieldsOutside } from '../engine/shared-figures';
import { chainFamilies, renderChainFamilies } from './chain-families';
import { LocationLines } from './location-families';

const LEVEL_VALUE = { ok: 0, warning: 1, error: 2 } as const;

/** The per-monitor families, written as text: through prom-client's label maps, 10,000 monitors took 1.7 s a page. */
const PER_MONITOR = [
    ['node_monitor_monitor_state', 'Health of the monitor at its latest check: 0 ok, 1 warning, 2 error.'],
    [
        'node_monitor_monitor_last_check_timestamp_seconds',
        'When the monitor was last checked, in seconds since the epoch.',
    ],
    [
        'node_monitor_monitor_last_success_timestamp_seconds',
        'When a check of the monitor last ended not in error, in seconds since the epoch.',
    ],
    ['node_monitor_check_duration_seconds', 'How long the latest check of the monitor took, in seconds.'],
] as const;

/** A label value as the text format wants it: backslash, double quote and newline escaped. */
const labelValue = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** What a per-monitor series is labelled with. */
interface MonitorLabels {
    company: string;
    configuration: string;
    chain: string;
    server: string;
    monitor: string;
    monitorId: number;
    type: string;
}

/** A monitor's label pairs, without the braces (the per-location families add one). */
const labelPairs = (m: MonitorLabels) =>
    `company="${labelValue(m.company)}",configuration="${labelValue(m.configuration)}",chain="${labelValue(m.chain)}",server="${labelValue(m.server)}",monitor="${labelValue(m.monitor)}",monitor_id="${m.monitorId}",type="${m.type}"`;

/** A monitor's lines of the per-monitor families, appended to `lines` (one list per family). */
function monitorLines(lines: string[][], m: MonitorLabels, o: Observation): void {
    const labels = `{${labelPairs(m)}}`;
    lines[0]?.push(`${PER_MONITOR[0][0]}${labels} ${LEVEL_VALUE[o.level]}`);
    lines[1]?.push(`${PER_MONITOR[1][0]}${labels} ${o.checkedAt / 1000}`);
    if (o.succeededAt !== null) lines[2]?.push(`${PER_MONITOR[2][0]}${labels} ${o.succeededAt / 1000}`);
    lines[3]?.push(`${PER_MONITOR[3][0]}${labels} ${o.durationMs / 1000}`);
}

/**
 * The Prometheus page: one registry per app (tests build several apps in one process), filled at scrape time from
 * the engine's memory and two small queries, so nothing is spent between scrapes. prom-client collects metrics in
 * parallel, so everything is read first and the series are set before rendering.
 *
 * Which process the figures are of: every page is its own process's, and says which in
 * `node_monitor_process_info{id,role,host,pid} 1` (id as /api/health's workers list it). In the cluster profile
 * (several processes) the per-monitor families and `node_monitor_open_incidents` are the cluster's, not the
 * process's: each worker records the checks it saved in Redis (server/engine/observations.ts) and every page reads
 * them all there, so any `web` process answers the same series and each monitor appears once per page whichever
 * worker checked it last (a Prometheus scraping several web processes gets them once per target: aggregate with
 * `max without (instance)`, or scrape one). So do the chain-source, validator and disk families: what each
 * process's checks read is recorded beside the observations in Redis (server/engine/shared-figures.ts), the latest
 * check's per validator monitor, configuration and server, kept a few check intervals; a page leaves out and
 * forgets those of monitors no longer checked. The engine figures, counters and process figures are
 * this process's own (workers serve no HTTP, so in the cluster only an `all` process's engine figures are on a
 * page). Embedded, everything comes from the one process's engine.
 */
export function createPrometheus(ctx: AppContext): { render(): Promise<string>; contentType: string } {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    // prom-client names these gauges `_total`, which Prometheus reserves for counters (promtool refuses them).
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
        registry.removeSingleMetric(name);

    const openIncidents = new Gauge({
        name: 'node_monitor_open_incidents',
        help: 'Monitors with an open incident (alerting or flapping).',
        registers: [registry],
    });
    const monitored = new Gauge({
        name: 'node_monitor_engine_monitors',
        help: 'Monitors the engine has scheduled.',
        registers: [registry],
    });
    const inFlight = new Gauge({
        name: 'node_monitor_engine_checks_in_flight',
        help: 'Checks running right now.',
        registers: [registry],
    });
    const lagP50 = new Gauge({
        name: 'node_monitor_engine_scheduling_lag_p50_seconds',
        help: 'Median of how late recent checks started after they were due.',
        registers: [registry],
    });
    const lagP99 = new Gauge({
        name: 'node_monitor_engine_scheduling_lag_p99_seconds',
        help: '99th percentile of how late recent checks started after they were due.',
        registers: [registry],
    });
    const backlog = new Gauge({
        name: 'node_monitor_outbox_backlog_messages',
        help: 'Notifications waiting to be delivered, by channel type.',
        labelNames: ['channel_type'],
        registers: [registry],
    });
    new Gauge({
        name: 'node_monitor_process_info',
        help: 'The process this page is of (its role: all, web or worker); always 1.',
        labelNames: ['id', 'role', 'host', 'pid'],
        registers: [registry],
    }).set({ id: ctx.workers.id, role: ctx.config.role, host: hostname(), pid: String(process.pid) }, 1);
    const outboxRows = new Gauge({
        name: 'node_monitor_outbox_messages',
        help: 'Notifications kept in the outbox, by channel type and result (pending, sent, failed).',
        labelNames: ['channel_type', 'result'],
        registers: [registry],
    });

    // Counters copy the engine's own running totals, so rate() works across scrapes.
    let checksSeen = 0;
    let skippedSeen = 0;
    const checks = new Counter({
        name: 'node_monitor_engine_checks_total',
        help: 'Checks the engine has started since the process started.',
        registers: [registry],
        collect() {
            const started = ctx.engine?.stats.scheduler.started ?? 0;
            if (started > checksSeen) this.inc(started - checksSeen);
            checksSeen = Math.max(checksSeen, started);
        },
    });
    const skipped = new Counter({
        name: 'node_monitor_engine_skipped_checks_total',
        help: 'Checks skipped because the previous run of the monitor was still busy.',
        registers: [registry],
        collect() {
            const n = ctx.engine?.stats.scheduler.skipped ?? 0;
            if (n > skippedSeen) this.inc(n - skippedSeen);
            skippedSeen = Math.max(skippedSeen, n);
        },
    });
    void checks;
    void skipped;

    /** Sets the engine figures and returns the per-monitor families as text. */
    async function walkEngine(): Promise<string> {
        const engine = ctx.engine;
        const shared = ctx.sharedState.observations;
        let alerting = 0;
        const lines: string[][] = PER_MONITOR.map(([name, help]) => [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`]);
        let chain = '';
        const names = new Map(
            (await ctx.db.select({ id: companies.id, name: companies.name }).from(companies)).map((c) => [c.id, c.name])
        );
        const locations = new LocationLines();
        if (shared) ({ alerting, chain } = await walkShared(shared, lines, locations));
        if (engine) {
            for (const { target, observation, alerting: open } of shared ? [] : engine.monitors()) {
                if (open) alerting++;
                if (!observation) continue;
                monitorLines(
                    lines,
                    {
                        company: names.get(target.configuration.companyId) ?? '',
                        configuration: target.configuration.name,
                        chain: target.configuration.chain,
                        server: target.server?.name ?? '',
                        monitor: target.name,
                        monitorId: target.id,
                        type: target.type,
                    },
                    observation
                );
            }
            if (!shared) chain = chainFamilies(engine, (id) => names.get(id) ?? '');
            const stats = engine.stats;
            monitored.set(stats.monitors);
            inFlight.set(stats.inFlight);
            const sorted = [...stats.scheduler.lags].sort((a, b) => a - b);
            const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) / 1000;
            lagP50.set(at(0.5));
            lagP99.set(at(0.99));
        }
        openIncidents.set(alerting);
        return `${lines.map((family) => `${family.join('\n')}\n`).join('')}${locations.render()}${chain}`;
    }

    /**
     * The cluster's per-monitor lines: the checked monitors the engine would load (enabled, on an enabled
     * configuration and server), with the latest check any worker recorded, and what each location saw where
     * several check it (only the cluster has several). Answers how many have an open incident, and the chain
     * families of the figures the workers recorded.
     */
    async function walkShared(
        shared: NonNullable<AppContext['sharedState']['observations']>,
        lines: string[][],
        locations: LocationLines
    ): Promise<{ alerting: number; chain: string }> {
        const [observed, recorded] = await Promise.all([shared.all(), shared.figures()]);
        const rows = await ctx.db
            .select({
                id: monitors.id,
                name: monitors.name,
                type: monitors.type,
                configurationId: configurations.id,
                configuration: configurations.name,
                chain: configurations.chain,
                company: companies.name,
                serverId: servers.id,
                server: servers.name,
                status: sql<string | null>`${monitorStates.state}->'alert'->>'status'`,
                locations: sql<unknown>`${monitorStates.state}->'locations'`,
            })
            .from(monitors)
            .innerJoin(configurations, eq(configurations.id, monitors.configurationId))
            .innerJoin(companies, eq(companies.id, configurations.companyId))
            .leftJoin(servers, eq(servers.id, monitors.serverId))
            .leftJoin(monitorStates, eq(monitorStates.monitorId, monitors.id))
            .where(
                and(
                    eq(monitors.isEnabled, true),
                    eq(configurations.isEnabled, true),
                    or(isNull(monitors.serverId), eq(servers.isEnabled, true))
                )
            )
            .orderBy(monitors.id);
        let alerting = 0;
        const stale = new Set(observed.keys());
        for (const r of rows) {
            if (r.status === 'alerting' || r.status === 'flapping') alerting++;
            stale.delete(r.id);
            const o = observed.get(r.id);
            if (!o) continue;
            const labels = {
                company: r.company,
                configuration: r.configuration,
                chain: r.chain,
                server: r.server ?? '',
                monitor: r.name,
                monitorId: r.id,
                type: r.type,
            };
            monitorLines(lines, labels, o);
            if (r.locations) locations.add(labelPairs(labels), r.locations);
        }
        const scope = rows.map((r) => ({
            monitorId: r.id,
            company: r.company,
            configurationId: r.configurationId,
            configuration: r.configuration,
            chain: r.chain,
            serverId: r.serverId,
            server: r.server ?? '',
        }));
        const { figures, expired } = recorded;
        await shared.forget([...stale], fieldsOutside(scope, figures), expired);
        return { alerting, chain: renderChainFamilies(scope, figures) };
    }

    async function countOutbox(): Promise<void> {
        backlog.reset();
        outboxRows.reset();
        const rows = await ctx.db
            .select({ type: notificationChannels.type, status: outbox.status, n: sql<number>`count(*)::int` })
            .from(outbox)
            .innerJoin(notificationChannels, sql`${notificationChannels.id} = ${outbox.channelId}`)
            .groupBy(notificationChannels.type, outbox.status);
        for (const r of rows) {
            outboxRows.set({ channel_type: r.type, result: r.status }, Number(r.n));
            if (r.status === 'pending') backlog.set({ channel_type: r.type }, Number(r.n));
        }
    }

    return {
        contentType: registry.contentType,
        async render() {
            const perMonitor = await walkEngine();
            await countOutbox();
            return `${perMonitor}${await registry.metrics()}`;
        },
    };
}
