import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Db } from '../db/client';
import { companies, configurationChannels, configurations, monitors, notificationChannels, outbox } from '../db/schema';
import { telegramHtml } from '../notify/format';
import { probeNoticeMessage } from '../notify/message';
import type { ProbeNoticeRecord } from '../notify/record';
import { EMPTY_TALLY, type LocationView, type ProbeChange, addSighting, probeChanges } from './probe-health';
import {
    closeEpisode,
    openEpisode,
    readSightings,
    seenLocations,
    type StoredSighting,
    type ToldEpisode,
    toldEpisodes,
} from './probe-health-store';
import { liveLocations } from './probes';

/** How often the probes are looked at: a cut is told within a check or two, a silent probe within its key's life. */
const WATCH_MS = 5000;

/** A location's monitors per company, at one look. */
type ByCompany = Map<number, Set<number>>;

const add = (m: ByCompany, companyId: number, monitorId: number) =>
    m.set(companyId, (m.get(companyId) ?? new Set()).add(monitorId));

/**
 * Tells the operators of a probe's own trouble (probe-health.ts): one look every few seconds at what the workers'
 * weighings recorded and which probes are alive, and a notice to each affected company's channels when a location
 * is cut off or silent, and when it is back. It runs in the one worker holding the cluster-wide duties
 * (server/assembly/background.ts); what it told is kept in Redis, so the next holder continues it.
 */
export class ProbeWatch {
    private timer: NodeJS.Timeout | null = null;
    /** A look still running when the next is due: the next is skipped, so no change is told twice. */
    private looking = false;
    /** The locations the last look found cut off, not yet told (see `look`). */
    private suspected = new Set<string>();

    constructor(
        private readonly ctx: { db: Db; redis: Redis },
        private readonly log: FastifyBaseLogger,
        private readonly now: () => number = () => Date.now()
    ) {}

    start(): void {
        this.timer = setInterval(() => {
            if (this.looking) return;
            this.looking = true;
            void this.look()
                .catch((err) => this.log.warn(`Watching the probes failed: ${err.message}`))
                .finally(() => {
                    this.looking = false;
                });
        }, WATCH_MS);
        this.timer.unref();
    }

    stop(): void {
        if (this.timer) clearInterval(this.timer);
        this.timer = null;
    }

    /** One look at every location; tells what changed. */
    async look(): Promise<void> {
        const { redis } = this.ctx;
        const nowMs = this.now();
        const live = new Set(await liveLocations(redis));
        const seen = await seenLocations(redis, [...live]);
        const sightings = await readSightings(redis, nowMs);
        const told = await toldEpisodes(redis);
        const named = await this.namedLocations();
        const views: LocationView[] = [];
        /** Per location, the monitors its notices are about: compared lately (a cut), checked from it or naming it. */
        const compared = new Map<string, ByCompany>();
        const users = new Map<string, ByCompany>();
        for (const location of new Set([...seen, ...told.cut.keys(), ...told.silent.keys()])) {
            const list: StoredSighting[] = sightings.get(location) ?? [];
            const tallies = new Map<number, typeof EMPTY_TALLY>();
            const fresh: ByCompany = new Map();
            const using: ByCompany = new Map();
            for (const s of list) {
                add(using, s.companyId, s.monitorId);
                if (!s.fresh || s.sighting === 'unpaired') continue;
                tallies.set(s.companyId, addSighting(tallies.get(s.companyId) ?? EMPTY_TALLY, s.sighting));
                add(fresh, s.companyId, s.monitorId);
            }
            for (const n of named.get(location) ?? []) add(using, n.companyId, n.monitorId);
            compared.set(location, fresh);
            users.set(location, using);
            views.push({ location, live: live.has(location), byCompany: tallies, users: new Set(using.keys()) });
        }
        const found = probeChanges(views, {
            cut: new Set(told.cut.keys()),
            silent: new Set(told.silent.keys()),
        });
        // A cut is told at the second look in a row that finds it: one look's blip is not a lost network, and the
        // targets whose checks fail a few seconds after the first ones' are counted in the one message.
        const cuts = new Set(found.flatMap((c) => (c.kind === 'probe-cut' ? [c.location] : [])));
        const changes = found.filter((c) => c.kind !== 'probe-cut' || this.suspected.has(c.location));
        this.suspected = cuts;
        for (const change of changes) {
            const episodes = change.kind === 'probe-cut' || change.kind === 'probe-back' ? told.cut : told.silent;
            await this.tell(change, nowMs, {
                monitors: (change.kind === 'probe-cut' ? compared : users).get(change.location) ?? new Map(),
                episode: episodes.get(change.location),
            });
        }
    }

    /** Monitors that name their locations, by location. */
    private async namedLocations(): Promise<Map<string, { monitorId: number; companyId: number }[]>> {
        const rows = await this.ctx.db
            .select({ id: monitors.id, locations: monitors.locations, companyId: configurations.companyId })
            .from(monitors)
            .innerJoin(configurations, eq(configurations.id, monitors.configurationId))
            .where(and(eq(monitors.isEnabled, true), isNotNull(monitors.locations)));
        const out = new Map<string, { monitorId: number; companyId: number }[]>();
        for (const r of rows)
            for (const location of r.locations ?? [])
                out.set(location, [...(out.get(location) ?? []), { monitorId: r.id, companyId: r.companyId }]);
        return out;
    }

    /** The enabled channels linked to the configurations of these monitors, per company, with its name. */
    private async channelsOf(monitorIds: number[]): Promise<Map<number, { name: string; channels: number[] }>> {
        const out = new Map<number, { name: string; channels: number[] }>();
        if (monitorIds.length === 0) return out;
        const rows = await this.ctx.db
            .selectDistinct({ companyId: companies.id, name: companies.name, channelId: notificationChannels.id })
            .from(monitors)
            .innerJoin(configurations, eq(configurations.id, monitors.configurationId))
            .innerJoin(companies, eq(companies.id, configurations.companyId))
            .innerJoin(configurationChannels, eq(configurationChannels.configurationId, monitors.configurationId))
            .innerJoin(
                notificationChannels,
                and(
                    eq(notificationChannels.id, configurationChannels.notificationChannelId),
                    eq(notificationChannels.isEnabled, true),
                    // A company's monitors are told through its own channels only.
                    eq(notificationChannels.companyId, configurations.companyId)
                )
            )
            .where(inArray(monitors.id, monitorIds));
        for (const r of rows) {
            const c = out.get(r.companyId) ?? { name: r.name, channels: [] };
            if (!c.channels.includes(r.channelId)) c.channels.push(r.channelId);
            out.set(r.companyId, c);
        }
        return out;
    }

    /** Queues a change's notice to each company's channels, once per channel, and notes what was told. */
    private async tell(
        change: ProbeChange,
        nowMs: number,
        about: { monitors: ByCompany; episode: ToldEpisode | undefined }
    ): Promise<void> {
        const { location } = change;
        const kind = change.kind === 'probe-cut' || change.kind === 'probe-back' ? 'cut' : 'silent';
        if (change.kind === 'probe-back' || change.kind === 'probe-reporting') {
            const episode = about.episode;
            if (episode) {
                const enabled = await this.stillEnabled(episode.companies.flatMap((c) => c.channels));
                for (const c of episode.companies) {
                    const record = this.record(change.kind, episode.id, c, location, episode.since, nowMs);
                    await this.queue(
                        record,
                        c.channels.filter((id) => enabled.has(id))
                    );
                }
            }
            await closeEpisode(this.ctx.redis, kind, location);
            this.log.info(`Probe ${location}: ${change.kind === 'probe-back' ? 'network back' : 'reporting again'}`);
            return;
        }
        const companyIds = change.kind === 'probe-cut' ? [...change.companies.keys()] : change.companies;
        const monitorIds = companyIds.flatMap((id) => [...(about.monitors.get(id) ?? [])]);
        const channels = await this.channelsOf(monitorIds);
        const id = `probe-${change.kind === 'probe-cut' ? 'cut' : 'silent'}-${location}-${nowMs}`;
        const episode: ToldEpisode = { id, since: nowMs, companies: [] };
        for (const companyId of companyIds) {
            const c = channels.get(companyId);
            if (!c) continue;
            const company = { id: companyId, name: c.name };
            const record = this.record(change.kind, id, company, location, nowMs, nowMs);
            if (change.kind === 'probe-cut') Object.assign(record, change.companies.get(companyId));
            else record.monitors = about.monitors.get(companyId)?.size ?? 0;
            await this.queue(record, c.channels);
            episode.companies.push({ ...company, channels: c.channels });
        }
        await openEpisode(this.ctx.redis, kind, location, episode);
        const what = change.kind === 'probe-cut' ? 'lost its network' : 'stopped reporting';
        this.log.warn(`Probe ${location} ${what}: told ${episode.companies.length} company(ies)`);
    }

    private record(
        kind: ProbeNoticeRecord['kind'],
        incidentId: string,
        company: { id: number; name: string },
        location: string,
        since: number,
        at: number
    ): ProbeNoticeRecord {
        return { kind, incidentId, company: { id: company.id, name: company.name }, location, since, at };
    }

    private async stillEnabled(ids: number[]): Promise<Set<number>> {
        if (ids.length === 0) return new Set();
        const rows = await this.ctx.db
            .select({ id: notificationChannels.id })
            .from(notificationChannels)
            .where(and(inArray(notificationChannels.id, ids), eq(notificationChannels.isEnabled, true)));
        return new Set(rows.map((r) => r.id));
    }

    private async queue(record: ProbeNoticeRecord, channels: number[]): Promise<void> {
        if (channels.length === 0) return;
        const text = telegramHtml(probeNoticeMessage(record));
        const payload = JSON.stringify(record);
        await this.ctx.db
            .insert(outbox)
            .values(channels.map((channelId) => ({ channelId, kind: record.kind, text, payload })));
    }
}
