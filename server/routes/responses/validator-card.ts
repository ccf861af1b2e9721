import { z } from 'zod';
import { BLOCK_STATES, type ValidatorCard } from '../../../common/validator-card';
import type { Expect, Same } from './answers';

/** GET /api/configurations/{id}/validator (common/validator-card.ts). Chain-read times pass as the chain wrote them. */
const jailBudget = z.object({
    missed: z.number(),
    budget: z.number(),
    left: z.number(),
    used_percent: z.number(),
    ms_to_jail: z.number().nullable(),
    jailed: z.boolean(),
    tombstoned: z.boolean(),
});

const proposal = z.object({
    id: z.string(),
    title: z.string(),
    voting_end: z.string().nullable(),
    voted: z.boolean(),
    options: z.array(z.string()),
});

const validator = z.object({
    valoper: z.string(),
    moniker: z.string().nullable(),
    status: z.string().nullable(),
    jailed: z.boolean().nullable(),
    rank: z.number().nullable(),
    max_validators: z.number().nullable(),
    tokens: z.string().nullable().describe('Base-denom integer as a decimal string'),
    denom: z.string().nullable(),
    voting_power_percent: z.number().nullable(),
    commission_percent: z.number().nullable(),
    jail_budget: jailBudget.nullable(),
    proposals: z.array(proposal).nullable(),
    signing: z
        .object({
            blocks: z.array(z.object({ height: z.number(), state: z.enum(BLOCK_STATES) })),
            source: z.string().nullable(),
        })
        .nullable()
        .describe(
            'The last 100 blocks as signed, missed or proposed, oldest first, and the node they were read through'
        ),
    read_at: z.string().nullable(),
});

const upgrade = z.object({
    plan: z.object({ name: z.string(), height: z.number(), eta: z.string().nullable() }).nullable(),
    app_version: z.string().nullable(),
    latest_height: z.number(),
    read_at: z.string(),
});

export const validatorCard = z.object({
    configuration_id: z.number().int(),
    validators: z.array(validator),
    upgrade: upgrade.nullable(),
});

/** Fails to compile when the schema and the card's type differ in any field. */
export type SchemaMatchesCard = Expect<Same<z.output<typeof validatorCard>, ValidatorCard>>;
