// One simulated node: its view of the shared chain (halted, catching up, stale clock), its own node key,
// peers, faults and host (node_exporter) state. The protocol files render from this view.
import type { SimBlock, SimChain, SetEntry, ValidatorState } from './chain';
import { FaultTable } from './faults';
import { makeValidatorKeys, nodeId, type ValidatorKeys } from './keys';
import { createHostState, type HostState } from './node-exporter';

export interface NodeMetricsState {
    /** Highest block whose last_commit this node has recorded (consensus/state.go recordMetrics). */
    observedHeight: number;
    /** Present only once the node's key was seen in a validator set (the gauges start to exist then). */
    validatorPower: number | null;
    lastSignedHeight: number | null;
    /** Cumulative since process start; the series does not exist before the first miss. */
    missedBlocks: number;
}

export class SimNode {
    readonly index: number;
    readonly chain: SimChain;
    /** The key in priv_validator_key.json: our validator's on the validator node, an unused one elsewhere. */
    readonly privval: ValidatorKeys;
    readonly isValidatorNode: boolean;
    readonly nodeId: string;
    readonly moniker: string;
    readonly faults = new FaultTable();
    readonly host: HostState;
    readonly metrics: NodeMetricsState;
    rpcUrl = '';
    restUrl = '';
    metricsUrl = '';
    nodeExporterUrl = '';

    /** Height the node stopped at, or null while it follows the chain. */
    haltedAt: number | null = null;
    catchingUp = false;
    /** While catching up, how far behind the head the node reports itself. */
    behindBlocks = 0;
    /** latest_block_time lags real time by this much while height still advances. */
    staleSeconds = 0;
    peers = 3;
    catchUpTimer: NodeJS.Timeout | null = null;

    private constructor(index: number, chain: SimChain, privval: ValidatorKeys, isValidatorNode: boolean) {
        this.index = index;
        this.chain = chain;
        this.privval = privval;
        this.isValidatorNode = isValidatorNode;
        this.nodeId = nodeId(`${chain.config.chainId}/${index}`);
        this.moniker = isValidatorNode ? `sim-validator-${index}` : `sim-sentry-${index}`;
        this.host = createHostState(index);
        this.metrics = {
            observedHeight: chain.earliestHeight,
            validatorPower: null,
            lastSignedHeight: null,
            missedBlocks: 0,
        };
    }

    static async create(index: number, chain: SimChain, isValidatorNode: boolean): Promise<SimNode> {
        const keys = isValidatorNode
            ? chain.ours
            : await makeValidatorKeys(`${chain.config.chainId}/node-key/${index}`, chain.config.prefix);
        return new SimNode(index, chain, keys, isValidatorNode);
    }

    get halted(): boolean {
        return this.haltedAt !== null || this.chain.halted;
    }

    /** The newest height this node has (what /status reports). */
    get height(): number {
        const chain = this.chain;
        let h = chain.height;
        if (this.haltedAt !== null) h = Math.min(h, this.haltedAt);
        if (this.catchingUp) h -= this.behindBlocks;
        return Math.max(chain.earliestHeight, h);
    }

    get headBlock(): SimBlock {
        return this.chain.block(this.height) as SimBlock;
    }

    /** Shift applied to every block time this node reports (stale clock fault). */
    get timeShiftNs(): bigint {
        return BigInt(this.staleSeconds) * -1_000_000_000n;
    }

    /** The validator set for `height` as this node knows it; height = head+1 is the next set. */
    validatorSet(height: number): SetEntry[] | undefined {
        const block = this.chain.block(height);
        if (height <= this.height) return block?.validators;
        if (height === this.height + 1) return block?.validators ?? this.chain.activeSet();
        return undefined;
    }

    /** Staking/slashing state as of this node's head: live at the chain head, a snapshot when behind. */
    validatorState(validatorIndex: number, height = this.height): ValidatorState | undefined {
        const v = this.chain.validators[validatorIndex];
        if (!v) return undefined;
        if (height >= this.chain.height) return v.state;
        return this.chain.block(height)?.snapshot.get(validatorIndex);
    }

    /** Our key's power in the set at this node's head, 0 when not in the set (`validator_info.voting_power`). */
    get votingPower(): number {
        const set = this.validatorSet(this.height + 1) ?? [];
        return set.find((e) => e.validator.hexAddress === this.privval.hexAddress)?.power ?? 0;
    }

    /** Update the consensus metrics for blocks this node has newly committed. */
    observe(): void {
        const m = this.metrics;
        for (let h = m.observedHeight + 1; h <= this.height; h++) {
            const block = this.chain.block(h);
            const prev = this.chain.block(h - 1);
            m.observedHeight = h;
            if (!block || !prev) continue;
            const idx = prev.validators.findIndex((e) => e.validator.hexAddress === this.privval.hexAddress);
            if (idx < 0) continue;
            m.validatorPower = (prev.validators[idx] as SetEntry).power;
            // CometBFT's metric counts only a vote for the block as signed (a nil vote is a miss here,
            // unlike x/slashing), and records the height of the block carrying the commit.
            if (block.lastCommit.signatures[idx]?.flag === 2) m.lastSignedHeight = h;
            else m.missedBlocks++;
        }
    }

    clearCatchUp(): void {
        if (this.catchUpTimer) clearTimeout(this.catchUpTimer);
        this.catchUpTimer = null;
        this.catchingUp = false;
        this.behindBlocks = 0;
    }
}
