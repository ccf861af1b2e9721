import type { MonitorType } from '../../../common/monitor-types';
import type { Check } from '../check';
import { blockCheckCheck } from './blockCheck';
import { governanceVoteCheck } from './governanceVote';
import { nodeExporterDiskSpaceCheck } from './nodeExporterDiskSpace';
import { priceFeederMissCountCheck } from './priceFeederMissCount';
import { signMissCheckCheck } from './signMissCheck';
import { slashingWindowCheck } from './slashingWindow';
import { upgradeWatchCheck } from './upgradeWatch';
import { urlCheckCheck } from './urlCheck';
import { validatorOutOfActiveSetCheck } from './validatorOutOfActiveSet';

/** One check per monitor type; typed by the closed union, so a missing type does not compile. */
export const CHECKS: Record<MonitorType, Check> = {
    urlCheck: urlCheckCheck,
    blockCheck: blockCheckCheck,
    signMissCheck: signMissCheckCheck,
    priceFeederMissCount: priceFeederMissCountCheck,
    nodeExporterDiskSpace: nodeExporterDiskSpaceCheck,
    validatorOutOfActiveSet: validatorOutOfActiveSetCheck,
    slashingWindow: slashingWindowCheck,
    governanceVote: governanceVoteCheck,
    upgradeWatch: upgradeWatchCheck,
};

/**
 * Whether a type's checks are judged together with other monitors' (chain-halt pooling and upgrade holds through
 * `settle`/`heldText`, one signing alert per validator through `signingGroup`): the facts they share live in one
 * engine's memory, so in the cluster profile all of them run in one worker (queue-scheduler.ts).
 */
export const judgedAcrossMonitors = (type: MonitorType): boolean => {
    const check = CHECKS[type];
    return check.settle !== undefined || check.heldText !== undefined || check.signingGroup === true;
};
