/**
 * GET /api/configurations/{id}/validator: what the validator-duty monitors of a configuration last read, for the
 * Validator card of the configuration page. Figures a monitor has not read yet are null.
 */

export const VALIDATOR_CARD_TYPES = [
    'signMissCheck',
    'validatorOutOfActiveSet',
    'slashingWindow',
    'governanceVote',
    'upgradeWatch',
] as const;

export interface JailBudgetFigures {
    missed: number;
    budget: number;
    left: number;
    used_percent: number;
    /** Null when the validator is not missing blocks now. */
    ms_to_jail: number | null;
    jailed: boolean;
    tombstoned: boolean;
}

export interface ProposalFigures {
    id: string;
    title: string;
    voting_end: string | null;
    voted: boolean;
    options: string[];
}

export const BLOCK_STATES = ['signed', 'missed', 'proposed'] as const;
export type BlockState = (typeof BLOCK_STATES)[number];

/** The signing grid: the last blocks a signMissCheck monitor read, oldest first, and the node it read them through. */
export interface SigningFigures {
    blocks: { height: number; state: BlockState }[];
    /** The server or chain endpoint the last reading came through; null before the first. */
    source: string | null;
}

export interface ValidatorFigures {
    valoper: string;
    moniker: string | null;
    status: string | null;
    jailed: boolean | null;
    rank: number | null;
    max_validators: number | null;
    /** Base-denom integers as decimal strings. */
    tokens: string | null;
    denom: string | null;
    voting_power_percent: number | null;
    commission_percent: number | null;
    jail_budget: JailBudgetFigures | null;
    /** Null when no governanceVote monitor watches this validator. */
    proposals: ProposalFigures[] | null;
    /** Null when no signMissCheck monitor reads this validator's blocks. */
    signing: SigningFigures | null;
    read_at: string | null;
}

export interface UpgradeFigures {
    plan: { name: string; height: number; eta: string | null } | null;
    app_version: string | null;
    latest_height: number;
    read_at: string;
}

export interface ValidatorCard {
    configuration_id: number;
    validators: ValidatorFigures[];
    upgrade: UpgradeFigures | null;
}
