import type { Monitor, Service } from '../../../common/entities';
import { defaultSettings } from '../../../common/monitor-types';

/** The body of a monitor that "Create Monitor?" adds with a new service. */
export type ServiceMonitorBody = Pick<
    Monitor,
    'name' | 'is_enabled' | 'configuration_id' | 'server_id' | 'type' | 'configuration_object'
>;

/**
 * Monitors created with a service (docs/spec.md §9): a URL check named like the service, on its address, and for a
 * node_exporter also a disk-space check (threshold 80 %, alert sleep 30 min, check interval 60 s).
 */
export function monitorsForService(
    service: Pick<Service, 'name' | 'address' | 'type'>,
    serverId: number,
    configurationId: number
): ServiceMonitorBody[] {
    const base = { is_enabled: true, configuration_id: configurationId, server_id: serverId };
    const monitors: ServiceMonitorBody[] = [
        {
            ...base,
            name: service.name,
            type: 'urlCheck',
            configuration_object: JSON.stringify({
                name: service.name,
                address: service.address,
                allowed_attempts: defaultSettings('urlCheck').allowed_attempts,
            }),
        },
    ];
    if (service.type === 'node_exporter') {
        const disk = defaultSettings('nodeExporterDiskSpace');
        monitors.push({
            ...base,
            name: `${service.name} disk space`,
            type: 'nodeExporterDiskSpace',
            configuration_object: JSON.stringify({
                threshold: disk.threshold,
                alert_sleep_duration_minutes: disk.alert_sleep_duration_minutes,
                check_interval_seconds: disk.check_interval_seconds,
            }),
        });
    }
    return monitors;
}
