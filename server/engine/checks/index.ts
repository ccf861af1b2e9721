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
