import { describe, expect, it } from 'vitest';
import type { CometCommit } from '../../../../server/clients/cometbft';
import { CommitCache } from '../../../../server/engine/checks/commit-cache';

const commit = (height: number, flag: 'commit' | 'absent' = 'commit'): CometCommit => ({
    height,
    signatures: [{ flag, validatorAddress: flag === 'absent' ? '' : 'AB' }],
});

describe('CommitCache', () => {
    it('returns a stored commit for the same node and height only', () => {
        const c = new CommitCache();
        c.set('http://a|chain-1', commit(10), 0);
        expect(c.get('http://a|chain-1', 10, 1)?.height).toBe(10);
        expect(c.get('http://a|chain-1', 11, 1)).toBeUndefined();
        expect(c.get('http://b|chain-1', 10, 1)).toBeUndefined();
        expect(c.get('http://a|chain-2', 10, 1)).toBeUndefined();
    });

    it('expires entries after the TTL and keeps at most maxEntries', () => {
        const c = new CommitCache(2, 1000);
        c.set('n', commit(1), 0);
        expect(c.get('n', 1, 1001)).toBeUndefined();
        c.set('n', commit(2), 0);
        c.set('n', commit(3), 0);
        c.set('n', commit(4), 0);
        expect(c.get('n', 2, 1)).toBeUndefined();
        expect(c.get('n', 3, 1)).toBeDefined();
        expect(c.get('n', 4, 1)).toBeDefined();
    });

    it('drops a node whose latest height goes back to or below a stored one', () => {
        const c = new CommitCache();
        c.set('n', commit(10), 0);
        c.set('m', commit(10), 0);
        c.observe('n', 11); // normal: latest is above every stored canonical commit
        expect(c.get('n', 10, 1)).toBeDefined();
        c.observe('n', 10); // rolled back
        expect(c.get('n', 10, 1)).toBeUndefined();
        expect(c.get('m', 10, 1)).toBeDefined();
    });
});
