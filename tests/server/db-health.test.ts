import { type FullDisk, fullDisk } from '../support/db-faults';
import type { AppConfig } from '../../server/config';
import { auth, login, persistentTestDatabase, seedUser, startAppOn, type TestApp } from './helpers';

/**
 * With a full disk, /api/health reports the database failing with its reason, and a write answers
 * 503 with a sentence saying the database cannot write, instead of a bare 500; both recover when the disk has room.
 */
let t: TestApp;
let disk: FullDisk;
let token: string;
let drop: () => Promise<void>;

beforeAll(async () => {
    const db = await persistentTestDatabase();
    drop = db.drop;
    const config: Partial<AppConfig> = { ...db.config, answerCacheMs: 0 };
    disk = fullDisk(config.databaseUrl ? null : (config.dataDir ?? null));
    t = await startAppOn(config);
    await seedUser(t.app, { username: 'root', isSuperAdmin: true, isAdmin: true });
    token = (await login(t.app, 'root')).access;
});
afterAll(async () => {
    await disk.free(t.app);
    disk.restore();
    await t.close();
    await drop();
});

const health = () => t.app.inject({ url: '/api/health' });
const createCompany = (name: string) =>
    t.app.inject({ method: 'POST', url: '/api/companies', headers: auth(token), payload: { name } });
const count = (text: string) => t.logs.filter((l) => l.includes(text)).length;

describe('a full disk', () => {
    it('is reported by health and by the API until the disk has room again', async () => {
        expect((await health()).json()).toEqual({ status: 'ok' });
        await disk.fill(t.app);

        for (let i = 0; i < 3; i++) {
            const res = await createCompany('Initech');
            expect(res.statusCode).toBe(503);
            expect(res.json().message).toMatch(
                /^The database cannot write: .*No space left on device\. Nothing was saved\.$/
            );
        }
        const failing = await health();
        expect(failing.statusCode).toBe(503);
        expect(failing.json()).toMatchObject({
            status: 'unavailable',
            database: { status: 'failing', message: expect.stringContaining('No space left on device') },
        });
        expect(count('Database outage began')).toBe(1);
        expect(count('Request failed')).toBe(0);

        await disk.free(t.app);
        expect((await createCompany('Initech')).statusCode).toBe(201);
        const ok = await health();
        expect(ok.statusCode).toBe(200);
        expect(ok.json()).toEqual({ status: 'ok' });
        expect(count('Database outage ended after')).toBe(1);
        const list = await t.app.inject({ url: '/api/companies', headers: auth(token) });
        expect(list.json().results.filter((c: { name: string }) => c.name === 'Initech')).toHaveLength(1);
    });

    it('still answers 400 for bad input and 404 for a missing row, not 503', async () => {
        await disk.fill(t.app);
        try {
            expect((await createCompany('')).statusCode).toBe(400);
            expect((await t.app.inject({ url: '/api/companies/999999', headers: auth(token) })).statusCode).toBe(404);
        } finally {
            await disk.free(t.app);
        }
    });
});
