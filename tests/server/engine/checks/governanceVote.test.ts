import type http from 'node:http';
import {
    type GovernanceMeasurement,
    governanceVoteCheck,
    type ProposalDuty,
} from '../../../../server/engine/checks/governanceVote';
import { fixture, startLoopback } from '../../check-support';
import { fail, makeCtx, okv, run } from './ctx';

// Quokka Stake on cosmoshub-4 and its account, the voter of the captured answers (protocols.md §10.1).
const VALOPER = 'cosmosvaloper1xqz9pemz5e5zycaa89kys5aw6m8rhgsvw4328e';
const VOTER = 'cosmos1xqz9pemz5e5zycaa89kys5aw6m8rhgsvtp9lt2';
const H = 3_600_000;
const END_936 = Date.parse('2024-07-15T16:34:53.367Z');

/** A gateway fake: bodies by path; a request for a second page answers an empty last page. */
function gateway(table: Record<string, { status?: number; body: string }>, seen: string[] = []): http.RequestListener {
    return (req, res) => {
        const url = new URL(req.url ?? '/', 'http://x');
        seen.push(url.pathname + url.search);
        if (url.searchParams.has('pagination.key')) {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ proposals: [], pagination: { next_key: null, total: '0' } }));
            return;
        }
        const e = table[url.pathname];
        res.writeHead(e ? (e.status ?? 200) : 404, { 'content-type': 'application/json' });
        res.end(e ? e.body : '404 page not found');
    };
}

const NOT_VOTED = { status: 400, body: fixture('cosmos-gov-v1beta1-vote-not-found-cosmoshub-4.json') };
const NOT_IMPLEMENTED = { status: 501, body: fixture('cosmos-rest-error-not-implemented.json') };

async function readWith(table: Record<string, { status?: number; body: string }>, seen?: string[]) {
    const lb = await startLoopback(gateway(table, seen));
    try {
        return await governanceVoteCheck.read(
            makeCtx('governanceVote', { valoper_address: VALOPER }, { rest: lb.url })
        );
    } finally {
        await lb.close();
    }
}

describe('governanceVote read', () => {
    it('gov v1: the vote-not-found answer means not voted; Error in the last 24 h with id, title and time left', async () => {
        const r = await readWith({
            '/cosmos/gov/v1/proposals': { body: fixture('cosmos-gov-v1-proposals-voting-period-cosmoshub-4.json') },
            [`/cosmos/gov/v1/proposals/936/votes/${VOTER}`]: NOT_VOTED,
        });
        expect(r).toMatchObject({ voter: VOTER, version: 'v1', proposals: [{ id: '936', options: [] }] });
        const out = governanceVoteCheck.evaluate(undefined, okv(r), {}, END_936 - 20 * H);
        expect(out.verdict).toEqual({
            level: 'error',
            message: `Not voted by ${VOTER}: proposal #936 "💎ATOM AirDrop ✅ - New AirDrop Checker ⭐" (ends in 20.0 h)`,
        });
    });

    it('gov v1: a vote cast is healthy', async () => {
        const r = await readWith({
            '/cosmos/gov/v1/proposals': { body: fixture('cosmos-gov-v1-proposals-voting-period-cosmoshub-4.json') },
            [`/cosmos/gov/v1/proposals/936/votes/${VOTER}`]: { body: fixture('derived-cosmos-gov-v1-vote.json') },
        });
        expect(r.proposals[0]?.options).toEqual(['VOTE_OPTION_NO_WITH_VETO']);
        expect(governanceVoteCheck.evaluate(undefined, okv(r), {}, END_936 - H).verdict.level).toBe('ok');
    });

    it('gov v1beta1 only: v1 answers 501, the legacy routes are read and `options` is the vote', async () => {
        const seen: string[] = [];
        const r = await readWith(
            {
                '/cosmos/gov/v1/proposals': NOT_IMPLEMENTED,
                '/cosmos/gov/v1beta1/proposals': { body: fixture('cosmos-gov-v1beta1-proposals-bitsong-trimmed.json') },
                [`/cosmos/gov/v1beta1/proposals/1/votes/${VOTER}`]: {
                    body: fixture('cosmos-gov-v1beta1-vote-cosmoshub-4.json'),
                },
                [`/cosmos/gov/v1beta1/proposals/7/votes/${VOTER}`]: NOT_VOTED,
            },
            seen
        );
        expect(r.version).toBe('v1beta1');
        expect(r.proposals).toEqual([
            expect.objectContaining({
                id: '1',
                title: 'Bitsong Transfer Enablement',
                options: ['VOTE_OPTION_NO_WITH_VETO'],
            }),
            expect.objectContaining({ id: '7', title: 'BitSong v0.10.0 Upgrade', options: [] }),
        ]);
        // The list was paged on to its end with next_key.
        expect(seen.some((s) => s.startsWith('/cosmos/gov/v1beta1/proposals?') && s.includes('pagination.key='))).toBe(
            true
        );
    });

    it('a proposal with no title field (SDK 0.46) and legacy content titles (kujira)', async () => {
        const noTitle = await readWith({
            '/cosmos/gov/v1/proposals': { body: fixture('derived-cosmos-gov-v1-proposals-sdk-0.46-no-title.json') },
            [`/cosmos/gov/v1/proposals/937/votes/${VOTER}`]: NOT_VOTED,
        });
        expect(noTitle.proposals).toEqual([expect.objectContaining({ id: '937', title: '#937', options: [] })]);
        const kujira = await readWith({
            '/cosmos/gov/v1/proposals': { body: fixture('cosmos-gov-v1-proposals-kujira-legacy-content-trimmed.json') },
            [`/cosmos/gov/v1/proposals/1/votes/${VOTER}`]: NOT_VOTED,
            [`/cosmos/gov/v1/proposals/2/votes/${VOTER}`]: NOT_VOTED,
        });
        expect(kujira.proposals.map((p) => p.title)).toEqual([
            'Update Jailing Parameters',
            'Deploy KUJI-axlUSDC FIN Market',
        ]);
    });

    it('another InvalidArgument (a wrong voter prefix) is an error, not "not voted"', async () => {
        await expect(
            readWith({
                '/cosmos/gov/v1/proposals': { body: fixture('cosmos-gov-v1-proposals-voting-period-cosmoshub-4.json') },
                [`/cosmos/gov/v1/proposals/936/votes/${VOTER}`]: {
                    status: 400,
                    body: JSON.stringify({ code: 3, message: 'decoding bech32 failed: invalid checksum', details: [] }),
                },
            })
        ).rejects.toThrow(/REST service .*decoding bech32 failed: invalid checksum \(gRPC code 3\)/);
    });
});

const T0 = Date.UTC(2025, 0, 1);
const p = (id: string, endsInHours: number, voted = false): ProposalDuty => ({
    id,
    title: `Title ${id}`,
    votingEndMs: T0 + endsInHours * H,
    options: voted ? ['VOTE_OPTION_YES'] : [],
});
const m = (...proposals: ProposalDuty[]) => okv<GovernanceMeasurement>({ voter: VOTER, version: 'v1', proposals });

describe('governanceVote evaluate', () => {
    it.each([
        ['no open proposal', m(), 'ok', null],
        ['unvoted, ending in 100 h', m(p('1', 100)), 'ok', null],
        [
            'unvoted, ending in 72 h',
            m(p('1', 72)),
            'warning',
            `Not voted by ${VOTER}: proposal #1 "Title 1" (ends in 72.0 h)`,
        ],
        ['voted, ending in 1 h', m(p('1', 1, true)), 'ok', null],
        [
            'two unvoted, the nearest first',
            m(p('1', 50), p('2', 10)),
            'error',
            `Not voted by ${VOTER}: proposal #2 "Title 2" (ends in 10.0 h); #1 "Title 1" (ends in 50.0 h)`,
        ],
    ] as const)('%s → %s', (_name, reading, level, message) => {
        expect(run(governanceVoteCheck, {}, [{ at: T0, reading }])[0]).toMatchObject({ level, message });
    });

    it('moving into the last hours: warning, then error; a vote recovers; settings move the edges', () => {
        const out = run(governanceVoteCheck, { warning_hours_before_end: 2, error_hours_before_end: 1 }, [
            { at: T0 - 3 * H, reading: m(p('1', 0)) },
            { at: T0 - 2 * H, reading: m(p('1', 0)) },
            { at: T0 - H / 2, reading: m(p('1', 0)) },
            { at: T0 - H / 4, reading: fail('REST service refused the connection') },
            { at: T0 - H / 5, reading: m(p('1', 0, true)) },
        ]);
        expect(out.map((o) => o.level)).toEqual(['ok', 'warning', 'error', 'error', 'ok']);
    });
});
