import { monitorStates } from '../../server/db/schema';
import { INITIAL_ALERT_STATE } from '../../server/engine/transitions';
import { parse, stringify } from 'yaml';
import { createWorld, type World } from './config-fixtures';
import { auth } from './helpers';

/** A monitor's probe locations and confirmation count in the API and in configuration as code. */
let w: World;
let cfg: number;
let srv: number;

beforeAll(async () => {
    w = await createWorld();
    cfg = await w.configuration(w.admin.access, { name: 'Hub' });
    srv = await w.server(w.admin.access, cfg, { name: 'val' });
});
afterAll(() => w?.t.close());

// Names are unique under a server, as an import of the exported document needs.
let made = 0;
const body = (extra: object = {}) => ({
    name: `blocks-${++made}`,
    configuration_id: cfg,
    server_id: srv,
    type: 'blockCheck',
    configuration_object: '{}',
    ...extra,
});
const post = (extra: object = {}) => w.call('POST', '/api/monitors', w.admin.access, body(extra));

describe('monitor locations and confirm', () => {
    it('defaults to every location and a confirmation of 1, as before', async () => {
        const res = await post();
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({ locations: null, confirm: 1 });
        expect(res.json().location_results).toBeUndefined();
    });

    it('stores the locations and the confirmation, and returns them', async () => {
        const res = await post({ locations: ['fra-1', 'sgp-1', 'local'], confirm: 2 });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({ locations: ['fra-1', 'sgp-1', 'local'], confirm: 2 });
        const read = await w.call('GET', `/api/monitors/${res.json().id}`, w.admin.access);
        expect(read.json()).toMatchObject({ locations: ['fra-1', 'sgp-1', 'local'], confirm: 2 });
    });

    it('answers each location’s latest result on one monitor checked from several', async () => {
        const m = (await post({ locations: ['local', 'fra-1'], confirm: 2 })).json();
        const results = [
            { location: 'local', level: 'ok', message: null, latency_ms: 12.5, checked_at: '2026-01-01T00:00:00.000Z' },
            {
                location: 'fra-1',
                level: 'error',
                message: 'The node could not be reached',
                latency_ms: 40,
                checked_at: '2026-01-01T00:00:00.000Z',
            },
        ];
        await w.t.app.ctx.db
            .insert(monitorStates)
            .values({ monitorId: m.id, state: { alert: INITIAL_ALERT_STATE, memory: null, locations: results } });
        const read = await w.call('GET', `/api/monitors/${m.id}`, w.admin.access);
        expect(read.json().location_results).toEqual(results);
        // The lists leave it out; an edit that echoes it back is accepted.
        const echoed = await w.call('PUT', `/api/monitors/${m.id}`, w.admin.access, { ...read.json(), name: 'echoed' });
        expect(echoed.statusCode).toBe(200);
    });

    it('lists the latest result per location of the enabled monitors the caller sees that several check', async () => {
        const at = '2026-01-01T00:00:00.000Z';
        const results = [
            { location: 'local', level: 'ok', message: null, latency_ms: 9, checked_at: at },
            { location: 'sgp-1', level: 'none', message: 'No answer in time', latency_ms: null, checked_at: at },
        ];
        const several = (await post({ locations: ['local', 'sgp-1'] })).json().id;
        const paused = (await post({ locations: ['local', 'sgp-1'], is_enabled: false })).json().id;
        const single = (await post()).json().id;
        const theirConfiguration = await w.configuration(w.other.access, { name: 'Theirs' });
        const theirs = (
            await w.call('POST', '/api/monitors', w.other.access, {
                ...body(),
                configuration_id: theirConfiguration,
                server_id: await w.server(w.other.access, theirConfiguration),
            })
        ).json().id;
        const state = (locations?: object[]) => ({ alert: INITIAL_ALERT_STATE, memory: null, locations });
        await w.t.app.ctx.db.insert(monitorStates).values([
            { monitorId: several, state: state(results) },
            { monitorId: paused, state: state(results) },
            { monitorId: single, state: state() },
            { monitorId: theirs, state: state(results) },
        ]);
        const listed = async (token: string) =>
            (await w.call('GET', '/api/monitors/location-results', token)).json().results as { monitor_id: number }[];
        const mine = await listed(w.plain.access);
        expect(mine).toContainEqual({ monitor_id: several, location_results: results });
        expect(mine.map((r) => r.monitor_id)).not.toEqual(expect.arrayContaining([paused]));
        expect(mine.map((r) => r.monitor_id)).not.toEqual(expect.arrayContaining([single]));
        expect(mine.map((r) => r.monitor_id)).not.toEqual(expect.arrayContaining([theirs]));
        expect((await listed(w.other.access)).map((r) => r.monitor_id)).toEqual([theirs]);
    });

    it.each([
        [{ confirm: 0 }, 'confirm', 'confirm must be a whole number of locations, at least 1'],
        [{ confirm: 1.5 }, 'confirm', 'confirm must be a whole number of locations, at least 1'],
        [{ confirm: '2' }, 'confirm', 'confirm must be a whole number of locations, at least 1'],
        [{ locations: ['fra-1'], confirm: 2 }, 'confirm', 'confirm cannot be more than the 1 location in locations'],
        [{ locations: [] }, 'locations', 'locations needs at least one location, or null for all'],
        [{ locations: ['fra 1'] }, 'locations', 'A location is named with letters, digits, - and _ (at most 40)'],
        [{ locations: ['a', 'a'] }, 'locations', 'locations names a location twice'],
        [{ locations: 'fra-1' }, 'locations', 'locations must be a list of location names, or null for all'],
    ])('refuses %j, naming %s', async (extra, field, text) => {
        const res = await post(extra);
        expect(res.statusCode).toBe(400);
        expect(res.json().errors[field]).toBe(text);
    });

    it('keeps what an edit leaves out, and judges one field sent alone against the other as stored', async () => {
        const m = (await post({ locations: ['fra-1', 'sgp-1'], confirm: 2 })).json();
        const put = (extra: object) => w.call('PUT', `/api/monitors/${m.id}`, w.admin.access, body(extra));
        const kept = await put({ name: `renamed-${m.id}` });
        expect(kept.statusCode).toBe(200);
        expect(kept.json()).toMatchObject({ name: `renamed-${m.id}`, locations: ['fra-1', 'sgp-1'], confirm: 2 });
        const tooFew = await put({ locations: ['fra-1'] });
        expect(tooFew.statusCode).toBe(400);
        expect(tooFew.json().errors.confirm).toBe('confirm cannot be more than the 1 location in locations');
        const all = await put({ locations: null, confirm: 3 });
        expect(all.statusCode).toBe(200);
        expect(all.json()).toMatchObject({ locations: null, confirm: 3 });
    });

    it('exports locations and confirm only where set, and imports them back', async () => {
        const own = await w.configuration(w.admin.access, { name: 'Osmo', chain: 'osmosis' });
        const site = (name: string, extra: object = {}) =>
            w.call('POST', '/api/monitors', w.admin.access, {
                name,
                configuration_id: own,
                server_id: null,
                type: 'urlCheck',
                configuration_object: JSON.stringify({ address: 'https://example.com' }),
                ...extra,
            });
        expect((await site('plain')).statusCode).toBe(201);
        expect((await site('confirmed', { locations: ['fra-1', 'sgp-1'], confirm: 2 })).statusCode).toBe(201);
        type Doc = { configurations: { name: string; monitors: Record<string, unknown>[] }[] };
        const exported = async () => {
            const res = await w.t.app.inject({ url: '/api/export?format=yaml', headers: auth(w.admin.access) });
            return parse(res.body) as Doc;
        };
        const doc = await exported();
        const osmo = doc.configurations.find((c) => c.name === 'Osmo');
        const [plain, confirmed] = osmo?.monitors ?? [];
        expect(plain).not.toHaveProperty('locations');
        expect(plain).not.toHaveProperty('confirm');
        expect(confirmed).toMatchObject({ locations: ['fra-1', 'sgp-1'], confirm: 2 });
        Object.assign(plain ?? {}, { locations: ['sgp-1', 'local'], confirm: 2 });
        Object.assign(confirmed ?? {}, { locations: undefined, confirm: undefined });
        const imported = await w.t.app.inject({
            method: 'POST',
            url: '/api/import?dry_run=false',
            headers: { ...auth(w.admin.access), 'content-type': 'application/yaml' },
            payload: stringify(doc),
        });
        expect(imported.statusCode).toBe(200);
        const again = (await exported()).configurations.find((c) => c.name === 'Osmo')?.monitors ?? [];
        expect(again[0]).toMatchObject({ name: 'plain', locations: ['sgp-1', 'local'], confirm: 2 });
        expect(again[1]).not.toHaveProperty('locations');
        expect(again[1]).not.toHaveProperty('confirm');
    });

    it('refuses a document whose confirm exceeds its locations, naming the path', async () => {
        const res = await w.t.app.inject({
            method: 'POST',
            url: '/api/import?dry_run=true',
            headers: { ...auth(w.admin.access), 'content-type': 'application/yaml' },
            payload: stringify({
                version: 1,
                configurations: [
                    {
                        name: 'Hub',
                        chain: 'cosmoshub',
                        monitors: [
                            {
                                name: 'site',
                                type: 'urlCheck',
                                settings: { address: 'https://example.com' },
                                locations: ['fra-1'],
                                confirm: 2,
                            },
                        ],
                    },
                ],
            }),
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors['configurations[0].monitors[0].confirm']).toBe(
            'confirm cannot be more than the 1 location in locations'
        );
    });
});
