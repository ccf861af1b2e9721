import { createWorld, type World } from '../config-fixtures';

/** Dates JavaScript parses but the database cannot hold are refused with a 400 naming the parameter, never a 500. */
let w: World;
let monitor: number;
let server: number;

beforeAll(async () => {
    w = await createWorld();
    const cfg = await w.configuration(w.admin.access, { name: 'Hub' });
    server = await w.server(w.admin.access, cfg);
    const res = await w.call('POST', '/api/monitors', w.admin.access, {
        configuration_id: cfg,
        name: 'site',
        type: 'urlCheck',
        configuration_object: '{"address":"http://127.0.0.1:9/"}',
    });
    monitor = res.json().id;
});
afterAll(() => w.t.close());

const EXTREMES = [
    '0000-01-01T00:00:00Z',
    '-004713-11-24T00:00:00Z',
    '+275760-09-13T00:00:00Z',
    '-271821-04-20T00:00:00Z',
];

describe('history ranges at the edges of time', () => {
    const paths = () => [
        `/api/monitors/${monitor}/history`,
        `/api/monitors/${monitor}/history.csv`,
        `/api/servers/${server}/disk-history`,
    ];

    it.each(EXTREMES)('from=%s → 400 naming from', async (date) => {
        for (const path of paths()) {
            const res = await w.call('GET', `${path}?from=${encodeURIComponent(date)}`, w.admin.access);
            expect(res.statusCode, `${path} ${res.body}`).toBe(400);
            expect(res.json().errors).toHaveProperty('from');
            expect(res.json().errors.from).toMatch(/^from must be/);
        }
    });

    it.each(EXTREMES)('to=%s → 400 naming to', async (date) => {
        for (const path of paths()) {
            const res = await w.call('GET', `${path}?to=${encodeURIComponent(date)}`, w.admin.access);
            expect(res.statusCode, `${path} ${res.body}`).toBe(400);
            expect(res.json().errors).toHaveProperty('to');
        }
    });

    it('the widest range it accepts still answers', async () => {
        const range = 'from=1970-01-01T00:00:00Z&to=9999-12-31T23:59:59Z';
        for (const path of paths()) {
            const res = await w.call('GET', `${path}?${range}`, w.admin.access);
            expect(res.statusCode, `${path} ${res.body}`).toBe(200);
        }
    });
});
