import { defaultSettings, MONITOR_CATALOGUE, MONITOR_TYPES } from '../../../common/monitor-types';
import { CHECKS } from '../../../server/engine/checks';
import { makeCtx } from './checks/ctx';

/**
 * The catalogue and the checks describe each type twice: what the API, the UI and the quota read from the catalogue
 * must be what the check does. A type whose entry and check disagree fails here.
 */
const VALOPER = 'cosmosvaloper1sjllsnramtg3ewxqwwrwjxfgc4n4ef9u2lcnj0';

describe.each(MONITOR_TYPES)('%s', (type) => {
    const entry = MONITOR_CATALOGUE[type];
    const check = CHECKS[type];

    it('runs at the interval the setting the catalogue names holds (the one the company minimum applies to)', () => {
        const key = entry.intervalSetting;
        if (key) {
            expect(check.intervalSeconds({ ...defaultSettings(type), [key]: 4321 })).toBe(4321);
        } else {
            const fast = { sleep_duration_seconds: 4321, check_interval_seconds: 4321 };
            expect(check.intervalSeconds(fast)).toBe(check.intervalSeconds({}));
        }
    });

    it('records a history reading exactly when the catalogue titles a chart for it', () => {
        expect(check.readingValue !== undefined).toBe(entry.reading !== undefined);
    });
});

describe.each(MONITOR_TYPES.filter((type) => MONITOR_CATALOGUE[type].reads.length > 0))('%s', (type) => {
    it('says, without a service, that it reads one the catalogue names', async () => {
        const settings = { ...defaultSettings(type), valoper_address: VALOPER, oracle_path: '/oracle/{valoper}/miss' };
        const read = CHECKS[type].read(makeCtx(type, settings, {}));
        await expect(read).rejects.toThrow(new RegExp(`no enabled (${MONITOR_CATALOGUE[type].reads.join('|')})\\b`));
    });
});
