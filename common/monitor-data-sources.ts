import type { MonitorType } from './monitor-types';
import type { ServiceType } from './service-types';

/**
 * The service types each monitor type reads its data through; any one of them enabled on the server is enough.
 * A type missing here reads no service (urlCheck requests its own address).
 */
export const MONITOR_DATA_SOURCES: Partial<Record<MonitorType, readonly ServiceType[]>> = {
    blockCheck: ['rpc', 'rest'],
    signMissCheck: ['rest'],
    priceFeederMissCount: ['rest'],
    validatorOutOfActiveSet: ['rest'],
    nodeExporterDiskSpace: ['node_exporter'],
};
