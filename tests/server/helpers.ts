import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../../server/app';
import { hashPassword } from '../../server/auth/passwords';
import type { AppConfig } from '../../server/config';
import { companies, users } from '../../server/db/schema';

/**
 * A fresh app per test file: PGlite in memory, or, when DATABASE_URL is set (CI's second pass), a throw-away
 * PostgreSQL database created next to the one DATABASE_URL names.
 */
export interface TestApp {
    app: FastifyInstance;
    logs: string[];
    close(): Promise<void>;
}

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
    return {
        port: 0,
        host: '127.0.0.1',
        dataDir: '/tmp/node-monitor-test-unused',
        databaseUrl: 'memory://',
        probeLocation: 'local',
        adminUsername: 'admin',
        adminPassword: 'admin-password-1',
        appSecret: randomBytes(32).toString('hex'),
        telegramApiUrl: 'http://127.0.0.1:9',
        pagerdutyEventsUrl: 'http://127.0.0.1:9',
        chainDirectoryUrl: 'http://127.0.0.1:9',
        chainDirectoryTestnetUrl: 'http://127.0.0.1:9',
        logLevel: 'info',
        // As in production: private targets only within a company's allowed networks (seedCompany allows loopback).
        allowPrivateTargets: false,
        engineEnabled: false,
        role: 'all',
        redisUrl: null,
        uiDir: null,
        socketUrl: null,
        publicUrl: null,
        accessTokenTtlSeconds: 600,
        loginRateLimitPerMinute: 1000,
        trustProxy: [],
        metricsToken: null,
        statusRateLimitPerMinute: 1000,
        heartbeatUrl: null,
        heartbeatIntervalSeconds: 60,
        incidentRetentionDays: 400,
        history: { enabled: true, rawHours: 48, fiveMinuteDays: 90, hourlyDays: 730 },
        answerCacheMs: 1000, // as in production; a test that writes behind the API and reads at once turns it off
        ...overrides,
    };
}

export async function throwAwayPostgres(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
    const name = `nm_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    // A copy of the migrated template global-setup.ts made, when there is one (not in scripts outside Vitest).
    const template = process.env.VITEST ? inject('postgresTemplate') : '';
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
    await admin.end();
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    return {
        url: url.toString(),
        drop: async () => {
            const c = new pg.Client({ connectionString: baseUrl });
            await c.connect();
            await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            await c.end();
        },
    };
}

/** A database that outlives one app, for restart scenarios: PGlite in a temp dir, or a throw-away PostgreSQL one. */
export async function persistentTestDatabase(): Promise<{ config: Partial<AppConfig>; drop(): Promise<void> }> {
    // The secret lives with the data, as DATA_DIR/secret.key does: a restart must still decrypt its bot tokens.
    const appSecret = randomBytes(32).toString('hex');
    const pgBase = process.env.DATABASE_URL;
    if (pgBase) {
        const db = await throwAwayPostgres(pgBase);
        return { config: { databaseUrl: db.url, appSecret }, drop: db.drop };
    }
    const dataDir = mkdtempSync(join(tmpdir(), 'nm-test-'));
    return {
        config: { databaseUrl: null, dataDir, appSecret },
        drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
}

/** An app on a database the caller owns (see persistentTestDatabase); closing it leaves the data. */
export async function startAppOn(config: Partial<AppConfig>): Promise<TestApp> {
    const logs: string[] = [];
    const logStream = new Writable({
        write(chunk: Buffer, _enc, done) {
            logs.push(chunk.toString('utf8'));
            done();
        },
    });
    const { app } = await buildApp(testConfig(config), { logStream });
    return { app, logs, close: () => app.close() };
}

let template: Blob | undefined;
/** The migrated database global-setup.ts dumped, read once per file; none on the PostgreSQL pass. */
function memoryTemplate(): Blob | undefined {
    const file = process.env.VITEST ? inject('serverDbTemplate') : '';
    if (!file) return undefined;
    template ??= new Blob([readFileSync(file)]);
    return template;
}

export async function createTestApp(overrides: Partial<AppConfig> = {}): Promise<TestApp> {
    const logs: string[] = [];
    const logStream = new Writable({
        write(chunk: Buffer, _enc, done) {
            logs.push(chunk.toString('utf8'));
            done();
        },
    });
    const pgBase = process.env.DATABASE_URL;
    const pgDb = pgBase ? await throwAwayPostgres(pgBase) : null;
    const { app } = await buildApp(testConfig({ databaseUrl: pgDb?.url ?? 'memory://', ...overrides }), {
        logStream,
        memoryTemplate: memoryTemplate(),
    });
    return {
        app,
        logs,
        close: async () => {
            await app.close();
            await pgDb?.drop();
        },
    };
}

/**
 * A company whose checks may reach loopback, where every test's fake or simulated node listens, and 10.0.0.0/8,
 * where the fixtures' validators live.
 */
export async function seedCompany(
    app: FastifyInstance,
    name: string,
    isActive = true,
    allowedNetworks = ['127.0.0.0/8', '10.0.0.0/8']
): Promise<number> {
    const [row] = await app.ctx.db
        .insert(companies)
        .values({ name, isActive, allowedNetworks })
        .returning({ id: companies.id });
    if (!row) throw new Error('no company');
    return row.id;
}

export interface SeedUser {
    username: string;
    password?: string;
    companyId?: number | null;
    isAdmin?: boolean;
    isSuperAdmin?: boolean;
    isActive?: boolean;
}

export async function seedUser(app: FastifyInstance, u: SeedUser): Promise<number> {
    const [row] = await app.ctx.db
        .insert(users)
        .values({
            username: u.username,
            passwordHash: await hashPassword(u.password ?? 'password-123'),
            companyId: u.companyId ?? null,
            isAdmin: u.isAdmin ?? false,
            isSuperAdmin: u.isSuperAdmin ?? false,
            isActive: u.isActive ?? true,
        })
        .returning({ id: users.id });
    if (!row) throw new Error('no user');
    return row.id;
}

export interface Tokens {
    access: string;
    refresh: string;
}

export async function login(app: FastifyInstance, username: string, password = 'password-123'): Promise<Tokens> {
    const res = await app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
    if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
    const body = res.json();
    return { access: body.accessToken.token, refresh: body.refreshToken.token };
}

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });
