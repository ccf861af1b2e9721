import { getConfig } from '../../../src/providers/config';

describe('getConfig', () => {
    it('reads a key of the global configuration object', () => {
        expect(getConfig('apiUrl')).toBe('/api');
        expect(getConfig('socketUrl')).toBe('ws://localhost:8081/api/logs');
    });

    it('throws the spec sentence for a missing key', () => {
        window.__NODE_MONITOR_CONFIG__ = { apiUrl: '/api' };
        expect(() => getConfig('socketUrl')).toThrow('Key socketUrl not found in configuration');
    });

    it('throws when the configuration script did not load at all', () => {
        window.__NODE_MONITOR_CONFIG__ = undefined;
        expect(() => getConfig('apiUrl')).toThrow('Key apiUrl not found in configuration');
    });
});
