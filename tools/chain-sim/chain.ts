// Shared chain state: validators, blocks with their commits, x/slashing liveness, and the block clock.
// Every simulated node serves a *view* of this one chain (see node.ts); nodes never own blocks themselves.
import { EventEmitter } from 'node:events';
import { EPOCH_TIME, msToNs, rfc3339Nano, TOMBSTONE_TIME } from './format';
import { createGovState, type GovState } from './gov';
import { fakeHash, makeValidatorKeys, sign, type ValidatorKeys } from './keys';

export type BondStatus = 'BOND_STATUS_BONDED' | 'BOND_STATUS_UNBONDING' | 'BOND_STATUS_UNBONDED';
export type OracleFlavour = 'kujira' | 'umee' | 'ojo' | 'terra-classic' | 'nibiru';
/** CometBFT BlockIDFlag: 1 absent, 2 commit, 3 nil (protocols.md §1.4). */
export type BlockIdFlag = 1 | 2 | 3;

export interface ChainConfig {
    chainId: string;
    prefix: string;
    blockTimeMs: number;
    validatorCount: number;
    /** Index of our validator in `validators`; the validator node's /status shows its key. */
    oursIndex: number;
    signedBlocksWindow: number;
    minSignedPerWindow: number;
    downtimeJailSeconds: number;
    oracle: OracleFlavour | null;
    /** Blocks kept; older ones are pruned and `earliest_block_height` moves up. */
    historyCap: number;
    /** Blocks created (back-dated) before the clock starts, so tests see a last_commit at once. */
    initialBlocks: number;
    bondDenom: string;
    maxValidators: number;
}

export interface SigningInfo {
    startHeight: number;
    indexOffset: number;
    missedBlocksCounter: number;
    jailedUntil: string;
    tombstoned: boolean;
}

/** The part of a validator that REST serves and that changes over time (snapshotted per block). */
export interface ValidatorState {
    status: BondStatus;
    jailed: boolean;
    tokens: bigint;
    unbondingHeight: number;
    unbondingTime: string;
    signing: SigningInfo;
}

/** A validator: its key forms (hexAddress, valcons, valoper, account, ...) plus its changing state. */
export interface SimValidator extends ValidatorKeys {
    index: number;
    moniker: string;
    state: ValidatorState;
    /** x/slashing missed-blocks bit array, one slot per window position. */
    missedBits: boolean[];
    oracleMissCounter: number;
}

export interface SetEntry {
    validator: SimValidator;
    power: number;
    proposerPriority: number;
}

export interface CommitSig {
    flag: BlockIdFlag;
    /** Uppercase hex; '' for an absent vote. */
    validatorHex: string;
    /** null for an absent vote (rendered as Go's zero time). */
    timestampNs: bigint | null;
    signature: string | null;
}

export interface Commit {
    height: number;
    blockHash: string;
    partsHash: string;
    signatures: CommitSig[];
}

export interface SimBlock {
    height: number;
    timeNs: bigint;
    hash: string;
    partsHash: string;
    appHash: string;
    proposerHex: string;
    validatorsHash: string;
    lastBlockHash: string;
    lastPartsHash: string;
    lastCommitHash: string;
    /** Commit for height−1 (empty at the first block). */
    lastCommit: Commit;
    /** Commit for this block, made when the block is produced (served by /commit before the next block). */
    commit: Commit;
    /** Validator set at this height; commit signatures are index-aligned with it. */
    validators: SetEntry[];
    /** Staking and signing state after this block, for nodes that lag behind the head. */
    snapshot: Map<number, ValidatorState>;
}

export interface MissPlan {
    mode: 'absent' | 'nil';
    /** Remaining commits to affect; null means until cleared. */
    remaining: number | null;
}

const POWER_REDUCTION = 1_000_000n;
const EMPTY_HASH = 'E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855';
const UNBONDING_SECONDS = 1_814_400;

export class SimChain extends EventEmitter {
    readonly config: ChainConfig;
    readonly validators: SimValidator[];
    readonly blocks: SimBlock[] = [];
    /** Time of block 1 (stays after pruning), used as the validators' commission update_time. */
    genesisTimeNs = 0n;
    /** Chain-wide halt: no node gets new blocks (e.g. a halted upgrade). */
    halted = false;
    /** Per validator index: planned missed signatures. */
    readonly missPlans = new Map<number, MissPlan>();
    /** x/upgrade's current plan: the chain makes block `height` and then stops until the upgrade is applied. */
    upgrade: { name: string; height: number; info: string } | null = null;
    /** `application_version.version` of node_info; the plan's name once it is applied. */
    appVersion = 'v0.50.9';
    /** Governance proposals and votes (gov.ts). */
    readonly gov: GovState = createGovState();
    /** Set by the node layer: returns true when the node holding this validator's key is down. */
    isSignerDown: (validatorIndex: number) => boolean = () => false;
    private timer: NodeJS.Timeout | null = null;
    private producing: Promise<void> | null = null;

    private constructor(config: ChainConfig, validators: SimValidator[]) {
        super();
        // Tests may wait for heights from many places at once.
        this.setMaxListeners(0);
        this.config = config;
        this.validators = validators;
    }

    static async create(config: ChainConfig): Promise<SimChain> {
        const validators: SimValidator[] = [];
        for (let i = 0; i < config.validatorCount; i++) {
            const keys = await makeValidatorKeys(`${config.chainId}/${i}`, config.prefix);
            validators.push({
                index: i,
                ...keys,
                moniker: i === config.oursIndex ? 'our-validator' : `validator-${i}`,
                // Distinct powers so that the set order (power desc) is stable and matches `index`.
                state: {
                    status: 'BOND_STATUS_BONDED',
                    jailed: false,
                    tokens: BigInt(1000 - i * 50) * 1_000_000_000n,
                    unbondingHeight: 0,
                    unbondingTime: EPOCH_TIME,
                    signing: {
                        startHeight: 0,
                        indexOffset: 0,
                        missedBlocksCounter: 0,
                        jailedUntil: EPOCH_TIME,
                        tombstoned: false,
                    },
                },
                missedBits: new Array(config.signedBlocksWindow).fill(false),
                oracleMissCounter: 0,
            });
        }
        const chain = new SimChain(config, validators);
        const start = Date.now() - config.initialBlocks * config.blockTimeMs;
        for (let i = 0; i < Math.max(1, config.initialBlocks); i++) {
            await chain.produceBlock(start + i * config.blockTimeMs);
        }
        return chain;
    }

    get ours(): SimValidator {
        return this.validators[this.config.oursIndex] as SimValidator;
    }

    get head(): SimBlock {
        return this.blocks[this.blocks.length - 1] as SimBlock;
    }

    get height(): number {
        return this.head.height;
    }

    get earliestHeight(): number {
        return (this.blocks[0] as SimBlock).height;
    }

    block(height: number): SimBlock | undefined {
        const idx = height - this.earliestHeight;
        return this.blocks[idx];
    }

    /** Validators that are in the active set right now (bonded and not jailed), in set order. */
    activeSet(): SetEntry[] {
        const height = this.blocks.length ? this.height + 1 : 1;
        return this.validators
            .filter((v) => v.state.status === 'BOND_STATUS_BONDED' && !v.state.jailed)
            .map((v) => ({ validator: v, power: Number(v.state.tokens / POWER_REDUCTION), proposerPriority: 0 }))
            .sort((a, b) => b.power - a.power || a.validator.hexAddress.localeCompare(b.validator.hexAddress))
            .map((e, i, all) => ({ ...e, proposerPriority: ((height + i) % all.length) * 100 - 50 * all.length }));
    }

    start(): void {
        if (this.timer) return;
        this.timer = setInterval(() => {
            // Skip a tick rather than queue blocks when signing is slower than the clock.
            if (this.halted || this.producing || this.atUpgradeHeight) return;
            this.producing = this.produceBlock(Date.now()).finally(() => {
                this.producing = null;
            });
        }, this.config.blockTimeMs);
    }

    /** Block H of a plan is stored, then the old binary panics executing it: the chain stands at H (§10.6). */
    get atUpgradeHeight(): boolean {
        return this.upgrade !== null && this.height >= this.upgrade.height;
    }

    async stop(): Promise<void> {
        if (this.timer) clearInterval(this.timer);
        this.timer = null;
        await this.producing;
    }

    /** Produce `count` blocks right now, regardless of the clock (deterministic tests). */
    async produceBlocks(count: number): Promise<void> {
        for (let i = 0; i < count; i++) {
            while (this.producing) await this.producing;
            if (this.atUpgradeHeight) return;
            this.producing = this.produceBlock(Date.now());
            try {
                await this.producing;
            } finally {
                this.producing = null;
            }
        }
    }

    waitForHeight(height: number, timeoutMs = 10_000): Promise<void> {
        if (this.height >= height) return Promise.resolve();
        return new Promise((resolve, reject) => {
            const onBlock = (block: SimBlock) => {
                if (block.height < height) return;
                clearTimeout(timer);
                this.off('block', onBlock);
                resolve();
            };
            const timer = setTimeout(() => {
                this.off('block', onBlock);
                reject(new Error(`height ${height} not reached within ${timeoutMs} ms (at ${this.height})`));
            }, timeoutMs);
            this.on('block', onBlock);
        });
    }

    private async produceBlock(nowMs: number): Promise<void> {
        const prev = this.blocks.length ? this.head : null;
        const height = prev ? prev.height + 1 : 1;
        // Sub-millisecond digits make times look like CometBFT's (nanosecond precision, varying length).
        const timeNs = msToNs(nowMs) + BigInt((height * 7919) % 1_000_000);
        const validators = this.activeSet();
        const lastCommit: Commit = prev?.commit ?? { height: 0, blockHash: '', partsHash: '', signatures: [] };
        // x/slashing runs in BeginBlock of H over the votes for H−1.
        if (prev) this.handleLiveness(prev, lastCommit, height, timeNs);
        const proposer = validators[height % Math.max(1, validators.length)];
        const hash = fakeHash(this.config.chainId, 'block', height, timeNs);
        const block: SimBlock = {
            height,
            timeNs,
            hash,
            partsHash: fakeHash(hash, 'parts'),
            appHash: fakeHash(this.config.chainId, 'app', height),
            proposerHex: proposer?.validator.hexAddress ?? '',
            validatorsHash: validators.length
                ? fakeHash('vals', ...validators.map((v) => `${v.validator.hexAddress}:${v.power}`))
                : EMPTY_HASH,
            lastBlockHash: prev?.hash ?? '',
            lastPartsHash: prev?.partsHash ?? '',
            lastCommitHash: prev ? fakeHash('commit', prev.hash) : EMPTY_HASH,
            lastCommit,
            commit: await this.makeCommit(height, hash, fakeHash(hash, 'parts'), timeNs, validators),
            validators,
            snapshot: new Map(),
        };
        for (const v of this.validators) {
            block.snapshot.set(v.index, { ...v.state, signing: { ...v.state.signing } });
        }
        if (height === 1) this.genesisTimeNs = timeNs;
        this.blocks.push(block);
        while (this.blocks.length > this.config.historyCap) this.blocks.shift();
        this.emit('block', block);
    }

    private async makeCommit(
        height: number,
        blockHash: string,
        partsHash: string,
        blockTimeNs: bigint,
        set: SetEntry[]
    ): Promise<Commit> {
        const signatures = await Promise.all(
            set.map(async (entry, i): Promise<CommitSig> => {
                const v = entry.validator;
                const flag = this.voteFlag(v.index);
                if (flag === 1) return { flag, validatorHex: '', timestampNs: null, signature: null };
                // Precommits arrive after the proposal but before the next block; spread them per validator.
                const delayMs = this.config.blockTimeMs * 0.4 + i * 3.1;
                const timestampNs = blockTimeNs + BigInt(Math.round(delayMs * 1_000_000));
                // Not CometBFT's canonical vote bytes (monitors never verify these), but a real ed25519 signature.
                const message = `${this.config.chainId}/${height}/0/${flag === 2 ? blockHash : ''}/${timestampNs}`;
                return { flag, validatorHex: v.hexAddress, timestampNs, signature: await sign(message, v.keypair) };
            })
        );
        return { height, blockHash, partsHash, signatures };
    }

    /** Decide how a validator votes on the commit being made now, consuming one step of its miss plan. */
    private voteFlag(validatorIndex: number): BlockIdFlag {
        const plan = this.missPlans.get(validatorIndex);
        if (plan) {
            if (plan.remaining !== null) {
                plan.remaining--;
                if (plan.remaining <= 0) this.missPlans.delete(validatorIndex);
            }
            return plan.mode === 'absent' ? 1 : 3;
        }
        return this.isSignerDown(validatorIndex) ? 1 : 2;
    }

    /** x/slashing HandleValidatorSignature (protocols.md §2.7): sliding window, downtime jail. */
    private handleLiveness(prev: SimBlock, commit: Commit, height: number, timeNs: bigint): void {
        const window = this.config.signedBlocksWindow;
        const maxMissed = window - Math.round(this.config.minSignedPerWindow * window);
        prev.validators.forEach((entry, i) => {
            const v = entry.validator;
            if (v.state.jailed) return;
            // Only an absent vote is a miss; a nil vote counts as signed.
            const missed = commit.signatures[i]?.flag === 1;
            const info = v.state.signing;
            const slot = info.indexOffset % window;
            info.indexOffset++;
            const previous = v.missedBits[slot] ?? false;
            if (!previous && missed) info.missedBlocksCounter++;
            if (previous && !missed) info.missedBlocksCounter--;
            v.missedBits[slot] = missed;
            if (missed && height > info.startHeight + window && info.missedBlocksCounter > maxMissed) {
                this.jail(v, height, timeNs);
                v.state.tokens -= v.state.tokens / 10_000n; // slash_fraction_downtime 0.0001
            }
        });
    }

    // --- state changes used by control.ts -------------------------------------------------------------

    /** Jail like a downtime infraction: leaves the set, UNBONDING, counter and offset reset. */
    jail(v: SimValidator, height = this.height, timeNs = msToNs(Date.now())): void {
        v.state.jailed = true;
        if (v.state.status === 'BOND_STATUS_BONDED') {
            v.state.status = 'BOND_STATUS_UNBONDING';
            v.state.unbondingHeight = height;
            v.state.unbondingTime = rfc3339Nano(timeNs + BigInt(UNBONDING_SECONDS) * 1_000_000_000n);
        }
        if (!v.state.signing.tombstoned) {
            v.state.signing.jailedUntil = rfc3339Nano(
                timeNs + BigInt(this.config.downtimeJailSeconds) * 1_000_000_000n
            );
        }
        this.resetWindow(v);
    }

    /** Give `v` the tokens that put it at `rank` (1 = most stake) among the bonded validators. */
    setRank(v: SimValidator, rank: number): void {
        const others = this.validators
            .filter((x) => x !== v && x.state.status === 'BOND_STATUS_BONDED')
            .map((x) => x.state.tokens)
            .sort((a, b) => (b > a ? 1 : b < a ? -1 : 0));
        const k = Math.max(1, Math.min(rank, others.length + 1));
        const above = others[k - 2];
        const below = others[k - 1];
        if (above === undefined) v.state.tokens = (below ?? 0n) + 1_000_000_000n;
        else v.state.tokens = below === undefined ? above / 2n : (above + below) / 2n;
    }

    setMissedCounter(v: SimValidator, n: number): void {
        const window = this.config.signedBlocksWindow;
        const count = Math.min(Math.max(0, Math.floor(n)), window);
        v.missedBits.fill(false);
        // The slots just behind the next one written are the last to be overwritten.
        for (let k = 1; k <= count; k++) v.missedBits[(v.state.signing.indexOffset - k + window * 2) % window] = true;
        v.state.signing.missedBlocksCounter = count;
    }

    unjail(v: SimValidator): void {
        if (v.state.signing.tombstoned) return; // a tombstoned validator can never come back
        v.state.jailed = false;
        v.state.status = 'BOND_STATUS_BONDED';
        v.state.unbondingHeight = 0;
        v.state.unbondingTime = EPOCH_TIME;
        // AfterValidatorBonded hook: liveness is measured again from the re-bonding height.
        v.state.signing.startHeight = this.height + 1;
    }

    unbond(v: SimValidator): void {
        v.state.status = 'BOND_STATUS_UNBONDED';
        v.state.unbondingHeight = this.height;
    }

    tombstone(v: SimValidator): void {
        this.jail(v);
        v.state.signing.tombstoned = true;
        v.state.signing.jailedUntil = TOMBSTONE_TIME;
        v.state.tokens -= v.state.tokens / 20n; // slash_fraction_double_sign 0.05
    }

    private resetWindow(v: SimValidator): void {
        v.state.signing.missedBlocksCounter = 0;
        v.state.signing.indexOffset = 0;
        v.missedBits.fill(false);
    }
}
