import { IMPORT_LIMITS } from '../../../server/config-as-code/bounds';
import { createWorld, type World } from '../config-fixtures';
import { auth } from '../helpers';

/**
 * An import document is bounded by what it expands to (monitors, objects, text after YAML aliases), and planning
 * one does not hold up other companies' requests.
 */
let w: World;

beforeAll(async () => {
    w = await createWorld();
});
afterAll(() => w.t.close());

const importYaml = (yaml: string, token = w.admin.access) =>
    w.t.app.inject({
        method: 'POST',
        url: '/api/import?dry_run=true',
        headers: { ...auth(token), 'content-type': 'application/yaml' },
        payload: yaml,
    });

/** One server's anchored list of `n` monitors, aliased by `copies` more servers. */
function amplified(n: number, copies: number): string {
    const monitors = Array.from(
        { length: n },
        (_, i) => `          - { name: m${i}, type: urlCheck, settings: { address: "https://example.com/${i}" } }`
    ).join('\n');
    const servers = Array.from(
        { length: copies },
        (_, i) => `      - { name: s${i + 1}, address: "http://10.0.0.${(i % 250) + 1}", monitors: *list }`
    ).join('\n');
    return [
        'version: 1',
        'configurations:',
        '  - name: Hub',
        '    chain: cosmoshub',
        '    servers:',
        '      - name: s0',
        '        address: "http://10.0.0.1"',
        '        monitors: &list',
        monitors,
        servers,
        '',
    ].join('\n');
}

/** How late a timer fires while `work` runs: how long the event loop was held at once. */
async function longestStall<T>(work: Promise<T>): Promise<{ result: T; stallMs: number }> {
    let stallMs = 0;
    let last = performance.now();
    const timer = setInterval(() => {
        const now = performance.now();
        stallMs = Math.max(stallMs, now - last - 10);
        last = now;
    }, 10);
    try {
        return { result: await work, stallMs };
    } finally {
        clearInterval(timer);
    }
}

describe('import amplification', () => {
    it('the anchored list aliased 99 times is refused at once with a 400 naming the limit', async () => {
        const yaml = amplified(4040, 99);
        expect(yaml.length).toBeLessThan(1024 * 1024);
        const started = performance.now();
        const res = await importYaml(yaml);
        const took = performance.now() - started;
        expect(res.statusCode).toBe(400);
        expect(res.json().errors.document).toMatch(new RegExp(`more than ${IMPORT_LIMITS.monitors} monitors`));
        expect(res.body.length).toBeLessThan(1000);
        // Parsing 400 KB of YAML takes seconds on a busy machine, off the main thread; what it stands for is never built.
        expect(took).toBeLessThan(15_000);
    });

    it('a JSON document past the monitor limit is refused too', async () => {
        const monitors = Array.from({ length: IMPORT_LIMITS.monitors + 1 }, (_, i) => ({
            name: `m${i}`,
            type: 'urlCheck',
        }));
        const doc = { version: 1, configurations: [{ name: 'Hub', chain: 'cosmoshub', monitors }] };
        const res = await w.call('POST', '/api/import?dry_run=true', w.admin.access, doc);
        expect(res.statusCode).toBe(400);
        expect(res.json().errors.document).toMatch(/the import limit/);
    });

    it('aliases of text count as text: past the size limit is refused', async () => {
        const text = 'x'.repeat(60_000);
        const yaml = `version: 1\nconfigurations:\n  - name: &t "${text}"\n    chain: cosmoshub\n    channels: [${Array(90).fill('*t').join(', ')}]\n`;
        const res = await importYaml(yaml);
        expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
        expect(res.json().errors?.document, res.body.slice(0, 300)).toMatch(/MiB of text \(the import limit\)/);
    });

    it("while an amplified document is refused, another company's read is not held up", async () => {
        const yaml = amplified(4040, 99);
        const { result, stallMs } = await longestStall(
            Promise.all([importYaml(yaml), w.call('GET', '/api/configurations', w.other.access)])
        );
        expect(result[0].statusCode).toBe(400);
        expect(result[1].statusCode).toBe(200);
        expect(stallMs).toBeLessThan(1000);
    });

    it('a document at the monitor limit is planned without holding the event loop for long', async () => {
        const monitors = Array.from({ length: IMPORT_LIMITS.monitors }, (_, i) => ({
            name: `m${i}`,
            type: 'urlCheck',
            settings: { address: `https://example.com/${i}` },
        }));
        const doc = { version: 1, configurations: [{ name: 'Hub', chain: 'cosmoshub', monitors }] };
        const { result, stallMs } = await longestStall(
            Promise.all([
                w.call('POST', '/api/import?dry_run=true', w.admin.access, doc),
                w.call('GET', '/api/configurations', w.other.access),
            ])
        );
        expect(result[0].statusCode, result[0].body.slice(0, 300)).toBe(200);
        expect(result[1].statusCode).toBe(200);
        // Validating 5,000 monitors at once takes a few hundred ms alone (about 0.5 s here, more on a loaded
        // machine); planning them yields between chunks. The aliased document held everyone for 4.8 s.
        expect(stallMs).toBeLessThan(2000);
    });
});
