import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import {
    MONITOR_CATALOGUE,
    MONITOR_TYPES,
    type MonitorType,
    needsServer,
    parseMonitorSettings,
    type SettingsResult,
} from '../../common/monitor-types';
import type { Db } from '../db/client';
import { companies, configurations, servers, services } from '../db/schema';
import { badRequest } from '../errors';
import type { CheckedMonitor, MonitorBody } from '../repositories/monitors';
import { inScope, type Scope } from '../repositories/scope';
import { assertTargetAllowed, enabledFlag, nameField, optionalRefId, refId, refusedTarget } from './fields';
import { confirmField, confirmProblem, locationsField } from './locations';
import { readOnlyFields } from './schemas';

/**
 * status, last_error and last_check belong to the engine: a client echoing a monitor it read may send them back,
 * and they are ignored, never stored.
 */
export const monitorBody = z
    .strictObject({
        name: nameField(),
        is_enabled: enabledFlag,
        configuration_id: refId('Please select a configuration'),
        server_id: optionalRefId('Please select a server!'),
        type: z.enum(MONITOR_TYPES, { error: 'Please select a type!' }),
        // A JSON string per the spec; an object is accepted too and stored as text.
        configuration_object: z.preprocess(
            (v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : v),
            z
                .string({ error: 'configuration_object must be a JSON string' })
                .max(16_384, 'configuration_object is too long')
                .nullable()
                .optional()
        ),
        service_id: optionalRefId('Service not found').optional(),
        // Absent on an edit keeps what is stored; on create, every location and a confirmation of 1.
        locations: locationsField.optional(),
        confirm: confirmField.optional(),
        // Echoed back by clients from what they read; ignored.
        server: z.unknown().optional(),
        configuration: z.unknown().optional(),
        status: z.unknown().optional(),
        last_error: z.unknown().optional(),
        last_check: z.unknown().optional(),
        // Read from lists and the detail (history), never stored.
        uptime_30d: z.unknown().optional(),
        location_results: z.unknown().optional(),
        ...readOnlyFields,
    })
    .superRefine((b, ctx) => {
        const problem = confirmProblem(b.locations, b.confirm);
        if (problem) ctx.addIssue({ code: 'custom', path: ['confirm'], message: problem });
    });
export type MonitorInput = z.infer<typeof monitorBody>;

/**
 * The rules that need no database: the type's settings (with their defaults filled in) and an address that is never a
 * metadata host. An import document's monitors pass these too. Errors are keyed by setting.
 */
export function checkSettings(type: MonitorType, json: string | null | undefined): SettingsResult {
    const parsed = parseMonitorSettings(type, json);
    if (!parsed.ok) return parsed;
    const address = parsed.settings.address;
    const refused = typeof address === 'string' ? refusedTarget(address) : null;
    return refused ? { ok: false, errors: { address: refused } } : parsed;
}

/**
 * Every rule a monitor body must pass beyond its shape, in one place: the type's settings, the address (never a metadata
 * host; for the company, within its allowed networks), the caller's rows (the configuration must be visible, the server
 * (required for types that read a service) must belong to that configuration, the service to that server) and the
 * company's minimum interval. Returns the normalised settings JSON. An edit sends no service_id: the link is set on
 * create only.
 */
export async function checkMonitor(
    db: Db,
    scope: Scope,
    body: MonitorBody,
    allowPrivate: boolean
): Promise<CheckedMonitor> {
    const errors: Record<string, string> = {};
    const parsed = checkSettings(body.type, body.configuration_object);
    if (!parsed.ok) Object.assign(errors, parsed.errors);
    if (body.server_id === null && needsServer(body.type)) errors.server_id = 'Please select a server!';
    const [configuration] = await db
        .select({
            id: configurations.id,
            name: configurations.name,
            companyId: configurations.companyId,
            minIntervalSeconds: companies.minIntervalSeconds,
        })
        .from(configurations)
        .innerJoin(companies, eq(companies.id, configurations.companyId))
        .where(and(eq(configurations.id, body.configuration_id), inScope(configurations.companyId, scope)));
    if (!configuration) errors.configuration_id = 'Configuration not found';
    else if (parsed.ok)
        Object.assign(errors, belowMinimum(body.type, parsed.settings, configuration.minIntervalSeconds));
    let server: { id: number; name: string } | null = null;
    if (body.server_id !== null && configuration) {
        const [s] = await db
            .select({ id: servers.id, name: servers.name, configurationId: servers.configurationId })
            .from(servers)
            .innerJoin(configurations, eq(configurations.id, servers.configurationId))
            .where(and(eq(servers.id, body.server_id), inScope(configurations.companyId, scope)));
        if (!s) errors.server_id = 'Server not found';
        else if (s.configurationId !== configuration.id)
            errors.server_id = 'The server must belong to the same configuration';
        else server = { id: s.id, name: s.name };
    }
    if (body.service_id != null) {
        const [svc] = await db
            .select({ serverId: services.serverId })
            .from(services)
            .where(eq(services.id, body.service_id));
        if (!svc || server === null || svc.serverId !== server.id)
            errors.service_id = "The service must belong to the monitor's server";
    }
    if (Object.keys(errors).length > 0 || !configuration || !parsed.ok) throw badRequest(errors);
    // Judged last: it reads the company's networks, and a body with other faults is refused for those first.
    const address = parsed.settings.address;
    if (typeof address === 'string')
        await assertTargetAllowed(allowPrivate, db, configuration.companyId, 'address', address);
    return { configuration, server, settings: JSON.stringify(parsed.settings) };
}

/**
 * The company's minimum check interval (the company's engine quota): a monitor set to run more often is refused, naming
 * the minimum, rather than saved with an interval the engine would not keep.
 */
function belowMinimum(type: MonitorType, settings: Record<string, unknown>, minSeconds: number) {
    const { intervalSetting: key, settings: fields } = MONITOR_CATALOGUE[type];
    const value = key === undefined ? undefined : settings[key];
    if (key === undefined || typeof value !== 'number' || value >= minSeconds) return {};
    const label = fields.find((f) => f.key === key)?.label ?? key;
    return {
        [key]: `${label} must be at least ${minSeconds}: this company's minimum check interval is ${minSeconds} seconds`,
    };
}
