import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/app';
import { auth, login, seedCompany, seedUser, testConfig } from './helpers';

// The shell side of configuration as code, as docs/integrations.md shows it: `npm run cli -- export > nodes.yaml`, then
// `npm run cli -- import nodes.yaml --dry-run`, on the embedded database of a stopped console.
const dir = mkdtempSync(join(tmpdir(), 'nm-cli-'));
const env = {
    ...process.env,
    DATA_DIR: join(dir, 'data'),
    APP_SECRET: randomBytes(32).toString('hex'),
    ENGINE_ENABLED: 'false',
    DATABASE_URL: '',
};
const cli = (...args: string[]) => spawnSync('npm', ['run', 'cli', '--', ...args], { env, encoding: 'utf8' });

beforeAll(async () => {
    const { app } = await buildApp(
        testConfig({ databaseUrl: null, dataDir: env.DATA_DIR, appSecret: env.APP_SECRET, allowPrivateTargets: true })
    );
    try {
        const companyId = await seedCompany(app, 'Acme');
        await seedUser(app, { username: 'alice', companyId, isAdmin: true });
        const token = (await login(app, 'alice')).access;
        const cfg = await app.inject({
            method: 'POST',
            url: '/api/configurations',
            headers: auth(token),
            payload: { name: 'Cosmos Hub', chain: 'cosmoshub' },
        });
        await app.inject({
            method: 'POST',
            url: '/api/servers',
            headers: auth(token),
            payload: { name: 'validator-1', address: 'http://10.0.0.5', configuration_id: cfg.json().id },
        });
    } finally {
        await app.close();
    }
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('exports to a file and imports it back: a no-op, then exactly the edit', { timeout: 300_000 }, () => {
    const exported = cli('export');
    expect(exported.status).toBe(0);
    const file = join(dir, 'nodes.yaml');
    writeFileSync(file, exported.stdout);
    expect(exported.stdout).toContain('name: validator-1');

    const dry = cli('import', file, '--dry-run');
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain('Would create 0, update 0, delete 0; 2 unchanged.');

    writeFileSync(file, readFileSync(file, 'utf8').replace('http://10.0.0.5', 'http://10.0.0.9'));
    const planned = cli('import', file, '--dry-run');
    expect(planned.stdout).toContain('update  server "validator-1" (address)');
    expect(cli('export').stdout).toContain('http://10.0.0.5');

    const applied = cli('import', file);
    expect(applied.status).toBe(0);
    expect(applied.stdout).toContain('Created 0, updated 1, deleted 0; 1 unchanged.');
    expect(cli('export').stdout).toContain('http://10.0.0.9');

    writeFileSync(
        file,
        'version: 1\nconfigurations:\n  - name: x\n    chain: y\n    servers: [{ name: s, address: nope }]\n'
    );
    const bad = cli('import', file);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('configurations[0].servers[0].address: Address must be an http(s) URL');
    expect(cli('export').stdout).toContain('http://10.0.0.9');
});
