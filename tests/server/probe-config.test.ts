import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../server/config';

/** PROBE_LOCATION and ROLE=probe: what a probe needs from its environment, and nothing more. */
const dataDir = `/tmp/nm-probe-config-${randomBytes(4).toString('hex')}`;

describe('probe configuration', () => {
    it('reads from `local` unless PROBE_LOCATION names another', () => {
        const env = { DATA_DIR: dataDir, APP_SECRET: 'x'.repeat(32) };
        expect(loadConfig(env).probeLocation).toBe('local');
        expect(loadConfig({ ...env, PROBE_LOCATION: 'fra-1' }).probeLocation).toBe('fra-1');
    });

    it('refuses a location name that could not name a queue', () => {
        expect(() => loadConfig({ DATA_DIR: dataDir, APP_SECRET: 'x'.repeat(32), PROBE_LOCATION: 'fra:1' })).toThrow(
            'PROBE_LOCATION must be a name of letters, digits, - and _ (at most 40), got "fra:1"'
        );
    });

    it('starts a probe with REDIS_URL alone: no database, no secret, no key file', () => {
        const config = loadConfig({
            ROLE: 'probe',
            REDIS_URL: 'redis://127.0.0.1:6379/6',
            PROBE_LOCATION: 'sgp-1',
            DATA_DIR: dataDir,
        });
        expect(config).toMatchObject({ role: 'probe', databaseUrl: null, appSecret: '', engineEnabled: false });
        expect(existsSync(`${dataDir}/secret.key`)).toBe(false);
    });

    it('stops a probe without REDIS_URL, saying where its reads come from', () => {
        expect(() => loadConfig({ ROLE: 'probe', DATA_DIR: dataDir })).toThrow(/ROLE=probe needs REDIS_URL/);
    });

    it('still stops a worker with REDIS_URL but no DATABASE_URL', () => {
        expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/6', DATA_DIR: dataDir })).toThrow(
            /REDIS_URL needs DATABASE_URL/
        );
    });
});
