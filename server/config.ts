import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { DEFAULT_LOCATION, LOCATION_NAME } from '../common/locations';
import { ensurePrivateDir, tighten } from './db/data-dir';

/** Everything the server reads from its environment, validated once; nothing else reads process.env. */
export interface AppConfig {
    port: number;
    host: string;
    dataDir: string;
    /** PostgreSQL instead of the embedded PGlite; `memory://` runs PGlite in memory (tests). */
    databaseUrl: string | null;
    adminUsername: string;
    adminPassword: string | null;
    /** Key material for tokens and secrets at rest. */
    appSecret: string;
    telegramApiUrl: string;
    /** PagerDuty Events API v2 base (PAGERDUTY_EVENTS_URL); events go to `<base>/v2/enqueue`. */
    pagerdutyEventsUrl: string;
    chainDirectoryUrl: string;
    chainDirectoryTestnetUrl: string;
    logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
    /** Every company may reach every loopback, private and link-local address (single-tenant switch; off by default). */
    allowPrivateTargets: boolean;
    /** Run the monitoring engine in this process (never in a `web` process). */
    engineEnabled: boolean;
    /**
     * What this process does (ROLE): `all` serves the API and UI and runs the checks and deliveries; `web` only
     * serves; `worker` only checks and delivers, and listens on no port; `probe` only reads targets for its
     * location's queue (REDIS_URL and PROBE_LOCATION, no database; server/engine/probes.ts).
     */
    role: Role;
    /**
     * The probe location this process reads targets from (PROBE_LOCATION, default `local`; common/locations.ts).
     */
    probeLocation: string;
    /** Redis of the cluster profile (REDIS_URL, `redis://host:port/db`): checks are scheduled on BullMQ there. */
    redisUrl: string | null;
    /** Directory of the built UI; null serves no UI (API only). */
    uiDir: string | null;
    /** Where operators open the console (PUBLIC_URL, no trailing slash): alerts link its pages; null links none. */
    publicUrl: string | null;
    /** Browser-visible WebSocket URL for the log tail; null derives it from the page's host. */
    socketUrl: string | null;
    accessTokenTtlSeconds: number;
    loginRateLimitPerMinute: number;
    /** How long the dashboard lists are answered from memory (0 turns that off); any API write drops them. */
    answerCacheMs: number;
    /** Requested every `heartbeatIntervalSeconds` while the engine is healthy (a dead-man's switch); null sends none. */
    heartbeatUrl: string | null;
    heartbeatIntervalSeconds: number;
    /**
     * Addresses or CIDRs of the reverse proxies in front of the console (TRUST_PROXY): X-Forwarded-For is believed
     * only from these peers, so sign-in limits and locks key on the real client. Empty believes no header.
     */
    trustProxy: string[];
    /** Requests a visitor's address may make to the public status pages in a minute (STATUS_RATE_LIMIT_PER_MINUTE). */
    statusRateLimitPerMinute: number;
    /** Bearer token that opens GET /metrics to Prometheus; null leaves the page out. */
    metricsToken: string | null;
    /** Closed incidents are kept this many days (INCIDENT_RETENTION_DAYS), then deleted with their timeline. */
    incidentRetentionDays: number;
    /** Check history: kept at all, and how long each resolution lives (raw checks, 5-minute and hourly rollups). */
    history: HistoryRetention & { enabled: boolean };
}

export interface HistoryRetention {
    rawHours: number;
    fiveMinuteDays: number;
    hourlyDays: number;
}

export class ConfigError extends Error {}

export const ROLES = ['all', 'web', 'worker', 'probe'] as const;
export type Role = (typeof ROLES)[number];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function int(env: NodeJS.ProcessEnv, name: string, def: number, min: number, max: number): number {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
        throw new ConfigError(`${name} must be a whole number between ${min} and ${max}, got "${raw}"`);
    }
    return n;
}

function bool(env: NodeJS.ProcessEnv, name: string, def: boolean): boolean {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
    throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function url(env: NodeJS.ProcessEnv, name: string, def: string, schemes: string[] = ['http:', 'https:']): string {
    const raw = env[name] || def;
    try {
        const u = new URL(raw);
        if (!schemes.includes(u.protocol)) throw new Error();
    } catch {
        throw new ConfigError(`${name} must be a ${schemes.join(' or ')} URL, got "${raw}"`);
    }
    return raw.replace(/\/+$/, '');
}

/** The secret comes from APP_SECRET, else from DATA_DIR/secret.key, created on first start. */
function loadSecret(env: NodeJS.ProcessEnv, dataDir: string): string {
    if (env.APP_SECRET) {
        if (env.APP_SECRET.length < 32) throw new ConfigError('APP_SECRET must be at least 32 characters long');
        return env.APP_SECRET;
    }
    const file = join(dataDir, 'secret.key');
    ensurePrivateDir(dataDir);
    if (existsSync(file)) {
        tighten(file, 0o600);
        return readFileSync(file, 'utf8').trim();
    }
    const secret = randomBytes(32).toString('hex');
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    return secret;
}

/** A comma- or space-separated list of IPv4/IPv6 addresses and CIDRs. */
function trustProxy(env: NodeJS.ProcessEnv): string[] {
    const entries = (env.TRUST_PROXY ?? '').split(/[\s,]+/).filter(Boolean);
    for (const entry of entries) {
        const [address, bits, ...rest] = entry.split('/');
        const family = isIP(address ?? '');
        const maxBits = family === 6 ? 128 : 32;
        const validBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
        if (!family || !validBits || rest.length > 0) {
            throw new ConfigError(`TRUST_PROXY must list IP addresses or CIDRs of your proxies, got "${entry}"`);
        }
    }
    return entries;
}

function metricsToken(env: NodeJS.ProcessEnv): string | null {
    const raw = env.METRICS_TOKEN;
    if (!raw) return null;
    if (raw.length < 16) throw new ConfigError('METRICS_TOKEN must be at least 16 characters long');
    return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
    const dataDir = resolve(env.DATA_DIR || './data');
    const logLevel = (env.LOG_LEVEL || 'info') as AppConfig['logLevel'];
    if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
    const databaseUrl = env.DATABASE_URL ? url(env, 'DATABASE_URL', '', ['postgres:', 'postgresql:']) : null;
    const role = (env.ROLE || 'all') as Role;
    if (!ROLES.includes(role)) throw new ConfigError(`ROLE must be one of ${ROLES.join(', ')}, got "${env.ROLE}"`);
    const redisUrl = env.REDIS_URL ? url(env, 'REDIS_URL', '', ['redis:', 'rediss:']) : null;
    const probeLocation = env.PROBE_LOCATION || DEFAULT_LOCATION;
    if (!LOCATION_NAME.test(probeLocation))
        throw new ConfigError(
            `PROBE_LOCATION must be a name of letters, digits, - and _ (at most 40), got "${probeLocation}"`
        );
    if (role === 'probe' && !redisUrl)
        throw new ConfigError(
            'ROLE=probe needs REDIS_URL: a probe takes its reads from the cluster’s Redis (and needs no DATABASE_URL)'
        );
    if (redisUrl && !databaseUrl && role !== 'probe')
        throw new ConfigError(
            "REDIS_URL needs DATABASE_URL: several processes share one PostgreSQL database (the embedded one is a single process's file), so set DATABASE_URL=postgres://… as well, or unset REDIS_URL"
        );
    return {
        port: int(env, 'PORT', 8081, 0, 65535),
        host: env.HOST || '127.0.0.1',
        dataDir,
        databaseUrl,
        adminUsername: env.ADMIN_USERNAME || 'admin',
        adminPassword: env.ADMIN_PASSWORD || null,
        // A probe holds no secret: it writes no key file and reads none.
        appSecret: role === 'probe' ? '' : loadSecret(env, dataDir),
        telegramApiUrl: url(env, 'TELEGRAM_API_URL', 'https://api.telegram.org'),
        pagerdutyEventsUrl: url(env, 'PAGERDUTY_EVENTS_URL', 'https://events.pagerduty.com'),
        chainDirectoryUrl: url(env, 'CHAIN_DIRECTORY_URL', 'https://chains.cosmos.directory'),
        chainDirectoryTestnetUrl: url(env, 'CHAIN_DIRECTORY_TESTNET_URL', 'https://chains.testcosmos.directory'),
        logLevel,
        allowPrivateTargets: bool(env, 'ALLOW_PRIVATE_TARGETS', false),
        engineEnabled: role !== 'web' && role !== 'probe' && bool(env, 'ENGINE_ENABLED', true),
        role,
        redisUrl,
        probeLocation,
        uiDir: env.UI_DIR === '' ? null : resolve(env.UI_DIR || './dist'),
        socketUrl: env.SOCKET_URL ? url(env, 'SOCKET_URL', '', ['ws:', 'wss:']) : null,
        publicUrl: env.PUBLIC_URL ? url(env, 'PUBLIC_URL', '').replace(/\/+$/, '') : null,
        accessTokenTtlSeconds: int(env, 'ACCESS_TOKEN_TTL_SECONDS', 600, 5, 86_400),
        loginRateLimitPerMinute: int(env, 'LOGIN_RATE_LIMIT_PER_MINUTE', 20, 1, 100_000),
        answerCacheMs: int(env, 'ANSWER_CACHE_MS', 1000, 0, 60_000),
        trustProxy: trustProxy(env),
        metricsToken: metricsToken(env),
        statusRateLimitPerMinute: int(env, 'STATUS_RATE_LIMIT_PER_MINUTE', 120, 1, 1_000_000),
        heartbeatUrl: env.HEARTBEAT_URL ? url(env, 'HEARTBEAT_URL', '') : null,
        heartbeatIntervalSeconds: int(env, 'HEARTBEAT_INTERVAL_SECONDS', 60, 1, 3600),
        incidentRetentionDays: int(env, 'INCIDENT_RETENTION_DAYS', 400, 1, 36_500),
        history: {
            enabled: bool(env, 'HISTORY_ENABLED', true),
            rawHours: int(env, 'HISTORY_RAW_HOURS', 48, 1, 24 * 31),
            fiveMinuteDays: int(env, 'HISTORY_5M_DAYS', 90, 1, 3660),
            hourlyDays: int(env, 'HISTORY_1H_DAYS', 730, 1, 36_600),
        },
    };
}
