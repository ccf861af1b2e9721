import { urlCheckCheck } from '../../../../server/engine/checks/urlCheck';
import { fail, makeCtx, okv, run } from './ctx';
import { startLoopback } from '../../check-support';

const up = okv({ url: 'http://x/', status: 200, elapsedMs: 5 });
const down = fail('http://x/ did not answer within 10 s');
const s500 = okv({ url: 'http://x/', status: 500, elapsedMs: 5 });
const s404 = okv({ url: 'http://x/', status: 404, elapsedMs: 5 });

describe('urlCheck evaluate', () => {
    it.each([
        ['healthy', 3, [up], ['ok']],
        ['warning below allowed_attempts, error at it', 3, [down, down, down], ['warning', 'warning', 'error']],
        ['0 allowed attempts: error at once', 0, [down], ['error']],
        ['5xx is a failure', 1, [s500], ['error']],
        ['4xx is a failure', 2, [s404], ['warning']],
        [
            'stays red during a long outage (no ping-pong)',
            2,
            [down, down, down, down, down],
            ['warning', 'error', 'error', 'error', 'error'],
        ],
        ['recovers on success', 1, [down, up, down], ['error', 'ok', 'error']],
    ] as const)('%s', (_name, allowed, readings, levels) => {
        const out = run(
            urlCheckCheck,
            { allowed_attempts: allowed },
            readings.map((reading, i) => ({ at: i * 60_000, reading }))
        );
        expect(out.map((v) => v.level)).toEqual(levels);
    });

    it('names the cause and the count', () => {
        const [, second] = run(urlCheckCheck, { allowed_attempts: 2 }, [
            { at: 0, reading: down },
            { at: 1, reading: s500 },
        ]);
        expect(second?.message).toBe('http://x/ answered HTTP 500 (2 failed attempts in a row; 2 allowed)');
        expect(run(urlCheckCheck, {}, [{ at: 0, reading: up }])[0]?.message).toBeNull();
    });

    it('uses 60 s interval and 30 min reminders', () => {
        expect(urlCheckCheck.intervalSeconds({})).toBe(60);
        expect(urlCheckCheck.alertSleepMinutes({})).toBe(30);
    });
});

describe('urlCheck read', () => {
    it('returns the status and refuses metadata', async () => {
        const lb = await startLoopback((req, res) => {
            res.writeHead(req.url === '/boom' ? 502 : 200);
            res.end('x'.repeat(2 * 1024 * 1024)); // bigger than the cap: still just a status
        });
        expect((await urlCheckCheck.read(makeCtx('urlCheck', { address: `${lb.url}/` }, {}))).status).toBe(200);
        expect((await urlCheckCheck.read(makeCtx('urlCheck', { address: `${lb.url}/boom` }, {}))).status).toBe(502);
        await expect(
            urlCheckCheck.read(makeCtx('urlCheck', { address: 'http://169.254.169.254/' }, {}))
        ).rejects.toThrow('cloud metadata');
        await lb.close();
    });
});
