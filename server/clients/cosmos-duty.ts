import { z } from 'zod';
import { asGatewayError, gatewaySentence } from './cosmos-rest';
import { type HttpClient, redactUrl } from './http';
import { fetchJson, joinUrl, NodeError, parsePayload, parseRfc3339Ms, wireInt } from './wire';

/**
 * Validator-duty reads over Cosmos REST (protocols.md §10): governance proposals in their voting period and the
 * validator's vote (gov v1, falling back to v1beta1 where v1 is not served), the upgrade module's current plan,
 * the running binary's version, and the staking params and bonded set for the active-set rank.
 */

const LABEL = 'REST service';

export type GovVersion = 'v1' | 'v1beta1';

export interface OpenProposal {
    id: string;
    title: string;
    votingEndMs: number | null;
}

export interface UpgradePlan {
    name: string;
    height: number;
    info: string;
}

const anyMsg = z.looseObject({ '@type': z.string().optional() });
const legacyContent = z.looseObject({ title: z.string().optional() });
const pagination = z.object({ next_key: z.string().nullish() }).nullish();

const v1Proposals = z.object({
    proposals: z.array(
        z.looseObject({
            id: wireInt,
            title: z.string().optional(),
            metadata: z.string().optional(),
            messages: z.array(anyMsg.extend({ content: legacyContent.nullish() })).optional(),
            voting_end_time: z.string().nullish(),
        })
    ),
    pagination,
});

const v1beta1Proposals = z.object({
    proposals: z.array(
        z.looseObject({
            proposal_id: wireInt,
            content: legacyContent.nullish(),
            voting_end_time: z.string().nullish(),
        })
    ),
    pagination,
});

const voteSchema = z.object({
    vote: z.looseObject({
        option: z.string().optional(),
        options: z.array(z.object({ option: z.string(), weight: z.string().optional() })).nullish(),
    }),
});

const planSchema = z.object({
    plan: z.object({ name: z.string(), height: wireInt, info: z.string().optional() }).nullable(),
});

const nodeInfoSchema = z.object({
    application_version: z.looseObject({ version: z.string().optional(), name: z.string().optional() }).nullish(),
});

const header = z.object({ header: z.object({ height: wireInt, time: z.string() }) });
const blockSchema = z.object({ block: header.nullish(), sdk_block: header.nullish() });

const stakingParamsSchema = z.object({
    params: z.looseObject({ max_validators: z.coerce.number().int(), bond_denom: z.string().optional() }),
});

const bondedSchema = z.object({
    validators: z.array(
        z.looseObject({
            operator_address: z.string(),
            tokens: z.string(),
            description: z.object({ moniker: z.string().optional() }).optional(),
            commission: z.object({ commission_rates: z.object({ rate: z.string() }) }).optional(),
        })
    ),
    pagination,
});

/** Title to show: `title`, else a legacy content's title, else the metadata JSON's title, else `#id` (§10.2). */
function v1Title(p: z.infer<typeof v1Proposals>['proposals'][number]): string {
    if (p.title?.trim()) return p.title.trim();
    for (const m of p.messages ?? []) if (m.content?.title?.trim()) return m.content.title.trim();
    if (p.metadata) {
        try {
            const meta = JSON.parse(p.metadata) as { title?: unknown };
            if (typeof meta.title === 'string' && meta.title.trim()) return meta.title.trim();
        } catch {
            // metadata is free text or an ipfs:// link
        }
    }
    return `#${p.id}`;
}

const MAX_PAGES = 20;

type Got<T> = { ok: true; value: T } | { ok: false; code: number; message: string };

export interface DutyClient {
    /** Proposals in their voting period; v1 first, v1beta1 only when v1 answers Not Implemented. */
    openProposals(): Promise<{ version: GovVersion; proposals: OpenProposal[] }>;
    /** The vote options of `voter` on a proposal, or null when it has not voted (code 3 "not found for proposal"). */
    vote(version: GovVersion, proposalId: string, voter: string): Promise<string[] | null>;
    currentPlan(): Promise<UpgradePlan | null>;
    appVersion(): Promise<string | null>;
    /** Height and time of the latest block, or of block `height`. */
    block(height?: number): Promise<{ height: number; timeMs: number | null }>;
    stakingParams(): Promise<{ maxValidators: number; bondDenom: string }>;
    /** Every bonded validator with its tokens (base denom, as a bigint) and commission rate (a decimal string). */
    bonded(): Promise<{ valoper: string; moniker: string; tokens: bigint; commission: string | null }[]>;
}

export function createDutyClient(http: HttpClient, baseUrl: string, signal?: AbortSignal): DutyClient {
    /** GET that hands a gateway error back instead of throwing, so callers can recognise codes 3 and 12. */
    async function get<T>(path: string, schema: z.ZodType<T>): Promise<Got<T>> {
        const url = joinUrl(baseUrl, path);
        let gateway: { code: number; message: string } | null = null;
        let body: unknown;
        try {
            body = await fetchJson(http, LABEL, url, signal, (b) => {
                gateway = asGatewayError(b);
                return gatewaySentence(b);
            });
        } catch (err) {
            if (gateway) return { ok: false, ...(gateway as { code: number; message: string }) };
            throw err;
        }
        const inBody = asGatewayError(body);
        if (inBody) return { ok: false, ...inBody };
        return { ok: true, value: parsePayload(schema, body, LABEL, url) };
    }

    async function must<T>(path: string, schema: z.ZodType<T>): Promise<T> {
        const r = await get(path, schema);
        if (r.ok) return r.value;
        throw new NodeError(`${LABEL} ${redactUrl(joinUrl(baseUrl, path))}: ${gatewaySentence(r)}`);
    }

    async function paged<T extends { pagination?: { next_key?: string | null } | null }>(
        path: string,
        schema: z.ZodType<T>
    ): Promise<{ ok: true; pages: T[] } | { ok: false; code: number; message: string }> {
        const pages: T[] = [];
        let key: string | null = null;
        for (let i = 0; i < MAX_PAGES; i++) {
            const sep = path.includes('?') ? '&' : '?';
            const r: Got<T> = await get(key ? `${path}${sep}pagination.key=${encodeURIComponent(key)}` : path, schema);
            if (!r.ok) return r;
            pages.push(r.value);
            key = r.value.pagination?.next_key ?? null;
            if (!key) break;
        }
        return { ok: true, pages };
    }

    const VOTING = 'proposal_status=PROPOSAL_STATUS_VOTING_PERIOD&pagination.limit=100';

    return {
        async openProposals() {
            const v1 = await paged(`/cosmos/gov/v1/proposals?${VOTING}`, v1Proposals);
            if (v1.ok) {
                const proposals = v1.pages.flatMap((p) => p.proposals);
                return {
                    version: 'v1',
                    proposals: proposals.map((p) => ({
                        id: String(p.id),
                        title: v1Title(p),
                        votingEndMs: parseRfc3339Ms(p.voting_end_time),
                    })),
                };
            }
            if (v1.code !== 12) {
                throw new NodeError(`${LABEL} ${redactUrl(baseUrl)}/cosmos/gov/v1/proposals: ${gatewaySentence(v1)}`);
            }
            const old = await paged(`/cosmos/gov/v1beta1/proposals?${VOTING}`, v1beta1Proposals);
            if (!old.ok) {
                throw new NodeError(
                    `${LABEL} ${redactUrl(baseUrl)}/cosmos/gov/v1beta1/proposals: ${gatewaySentence(old)}`
                );
            }
            return {
                version: 'v1beta1',
                proposals: old.pages
                    .flatMap((p) => p.proposals)
                    .map((p) => ({
                        id: String(p.proposal_id),
                        title: p.content?.title?.trim() || `#${p.proposal_id}`,
                        votingEndMs: parseRfc3339Ms(p.voting_end_time),
                    })),
            };
        },
        async vote(version, proposalId, voter) {
            const path = `/cosmos/gov/${version}/proposals/${encodeURIComponent(proposalId)}/votes/${encodeURIComponent(voter)}`;
            const r = await get(path, voteSchema);
            if (!r.ok) {
                // x/gov answers InvalidArgument "voter: … not found for proposal: …" for "has not voted" (§10.3).
                if (r.code === 3 && /not found for proposal/i.test(r.message)) return null;
                throw new NodeError(`${LABEL} ${redactUrl(joinUrl(baseUrl, path))}: ${gatewaySentence(r)}`);
            }
            const options = (r.value.vote.options ?? [])
                .map((o) => o.option)
                .filter((o) => o !== 'VOTE_OPTION_UNSPECIFIED');
            // SDK ≤ 0.42 answers the single deprecated `option` only.
            if (options.length === 0 && r.value.vote.option && r.value.vote.option !== 'VOTE_OPTION_UNSPECIFIED')
                options.push(r.value.vote.option);
            return options.length ? options : null;
        },
        async currentPlan() {
            const p = (await must('/cosmos/upgrade/v1beta1/current_plan', planSchema)).plan;
            return p ? { name: p.name, height: p.height, info: p.info ?? '' } : null;
        },
        async appVersion() {
            const info = await must('/cosmos/base/tendermint/v1beta1/node_info', nodeInfoSchema);
            return info.application_version?.version || null;
        },
        async block(height) {
            const path = `/cosmos/base/tendermint/v1beta1/blocks/${height === undefined ? 'latest' : String(height)}`;
            const b = await must(path, blockSchema);
            const h = (b.sdk_block ?? b.block)?.header;
            if (!h)
                throw new NodeError(`${LABEL} ${redactUrl(joinUrl(baseUrl, path))} answered a block without a header`);
            return { height: h.height, timeMs: parseRfc3339Ms(h.time) };
        },
        async stakingParams() {
            const p = (await must('/cosmos/staking/v1beta1/params', stakingParamsSchema)).params;
            return { maxValidators: p.max_validators, bondDenom: p.bond_denom ?? '' };
        },
        async bonded() {
            const r = await paged(
                '/cosmos/staking/v1beta1/validators?status=BOND_STATUS_BONDED&pagination.limit=200',
                bondedSchema
            );
            if (!r.ok)
                throw new NodeError(
                    `${LABEL} ${redactUrl(baseUrl)}/cosmos/staking/v1beta1/validators: ${gatewaySentence(r)}`
                );
            return r.pages
                .flatMap((p) => p.validators)
                .map((v) => ({
                    valoper: v.operator_address,
                    moniker: v.description?.moniker ?? '',
                    tokens: /^\d+$/.test(v.tokens) ? BigInt(v.tokens) : 0n,
                    commission: v.commission?.commission_rates.rate ?? null,
                }));
        },
    };
}
