// x/gov REST routes (protocols.md §10.2–10.4): proposals in their voting period and the votes of voters, in the
// v1 encoding and the v1beta1 one. A chain may serve only v1beta1 (SDK ≤ 0.45): v1 then answers 501.
import { msToNs, rfc3339Nano } from './format';
import { checkBech32, grpcError, notImplemented, paginate, type RestContext } from './gateway';
import { json, type SimResponse } from './http';

export interface SimProposal {
    id: number;
    title: string;
    submitMs: number;
    votingEndMs: number;
    /** Voter account → vote option. */
    votes: Map<string, string>;
}

export interface GovState {
    /** Serve only the v1beta1 routes, as an SDK ≤ 0.45 chain does. */
    legacyOnly: boolean;
    proposals: SimProposal[];
}

export const createGovState = (): GovState => ({ legacyOnly: false, proposals: [] });

const time = (ms: number) => rfc3339Nano(msToNs(ms));

function status(p: SimProposal, nowMs: number) {
    return p.votingEndMs > nowMs ? 'PROPOSAL_STATUS_VOTING_PERIOD' : 'PROPOSAL_STATUS_PASSED';
}

function renderV1(p: SimProposal, nowMs: number) {
    return {
        id: String(p.id),
        messages: [],
        status: status(p, nowMs),
        final_tally_result: { yes_count: '0', abstain_count: '0', no_count: '0', no_with_veto_count: '0' },
        submit_time: time(p.submitMs),
        deposit_end_time: time(p.submitMs),
        total_deposit: [{ denom: 'stake', amount: '10000000' }],
        voting_start_time: time(p.submitMs),
        voting_end_time: time(p.votingEndMs),
        metadata: JSON.stringify({ title: p.title, summary: '' }),
        title: p.title,
        summary: '',
        proposer: '',
        expedited: false,
        failed_reason: '',
    };
}

function renderV1beta1(p: SimProposal, nowMs: number) {
    return {
        proposal_id: String(p.id),
        content: { '@type': '/cosmos.gov.v1beta1.TextProposal', title: p.title, description: '' },
        status: status(p, nowMs),
        final_tally_result: { yes: '0', abstain: '0', no: '0', no_with_veto: '0' },
        submit_time: time(p.submitMs),
        deposit_end_time: time(p.submitMs),
        total_deposit: [{ denom: 'stake', amount: '10000000' }],
        voting_start_time: time(p.submitMs),
        voting_end_time: time(p.votingEndMs),
    };
}

export function govRoute(ctx: RestContext, path: string): SimResponse | null {
    const m = /^\/cosmos\/gov\/(v1|v1beta1)\/proposals(?:\/(\d+)\/votes\/([^/]+))?$/.exec(path);
    if (!m) return null;
    const chain = ctx.node.chain;
    const gov = chain.gov;
    const version = m[1] as 'v1' | 'v1beta1';
    if (version === 'v1' && gov.legacyOnly) return notImplemented();
    const now = Date.now();
    if (!m[2]) {
        const wanted = ctx.query.get('proposal_status') ?? '';
        const list = gov.proposals.filter((p) => wanted === '' || status(p, now) === wanted || wanted === '2');
        return paginate(ctx.query, list, 'proposals', (p) =>
            version === 'v1' ? renderV1(p, now) : renderV1beta1(p, now)
        );
    }
    const voter = decodeURIComponent(m[3] ?? '');
    const bad = checkBech32(voter, chain.config.prefix);
    if (bad) return bad;
    const p = gov.proposals.find((x) => x.id === Number(m[2]));
    const option = p?.votes.get(voter);
    // x/gov/keeper/grpc_query.go: InvalidArgument, the same text for v1 and v1beta1 (§10.3).
    if (!p || !option) return grpcError(3, `voter: ${voter} not found for proposal: ${m[2]}`);
    const options = [{ option, weight: '1.000000000000000000' }];
    const vote =
        version === 'v1'
            ? { proposal_id: String(p.id), voter, options, metadata: '' }
            : { proposal_id: String(p.id), voter, option: 'VOTE_OPTION_UNSPECIFIED', options };
    return json(200, { vote });
}
