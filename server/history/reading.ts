import type { MonitorType } from '../../common/monitor-types';
import type { ReadResult } from '../engine/check';
import type { BlockMeasurement } from '../engine/checks/blockCheck';
import type { DiskMeasurement } from '../engine/checks/nodeExporterDiskSpace';
import type { OracleMemory } from '../engine/checks/priceFeederMissCount';
import type { SignMissMemory } from '../engine/checks/signMissCheck';
import type { ActiveSetMeasurement } from '../engine/checks/validatorOutOfActiveSet';

/**
 * The one number a type's chart shows, taken from what the check read or kept: height (blockCheck), missed
 * signatures in the episode (signMissCheck), oracle counter rise (priceFeederMissCount), the fullest disk's used %
 * (nodeExporterDiskSpace), rank (validatorOutOfActiveSet). Null for the other types and for failed reads.
 */
export function readingValue(type: MonitorType, reading: ReadResult<unknown>, memory: unknown): number | null {
    const finite = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? n : null);
    switch (type) {
        case 'blockCheck':
            return reading.ok ? finite((reading.value as BlockMeasurement).height) : null;
        case 'signMissCheck':
            return reading.ok ? finite((memory as SignMissMemory | undefined)?.misses) : null;
        case 'priceFeederMissCount':
            return reading.ok ? finite((memory as OracleMemory | undefined)?.rise) : null;
        case 'nodeExporterDiskSpace': {
            if (!reading.ok) return null;
            const used = (reading.value as DiskMeasurement).filesystems.map((f) => f.usedPercent);
            return used.length ? Math.max(...used) : null;
        }
        case 'validatorOutOfActiveSet':
            return reading.ok ? finite((reading.value as ActiveSetMeasurement).rank?.rank) : null;
        default:
            return null;
    }
}
