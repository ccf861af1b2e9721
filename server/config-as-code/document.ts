import { z } from 'zod';
import { MONITOR_TYPES, needsServer } from '../../common/monitor-types';
import { SERVICE_TYPES } from '../../common/service-types';
import { chainEndpointsField, nameField, targetAddress } from '../validation/fields';
import { confirmField, confirmProblem, locationsField } from '../validation/locations';
import { checkSettings } from '../validation/monitor';

/**
 * The configuration-as-code document, version 1 (docs/integrations.md, "Configuration as code"): a company's configurations with
 * their servers, services, monitors and channel links. Names identify rows within their parent; ids and secrets
 * never appear. JSON and YAML carry the same shape.
 */
export const DOCUMENT_VERSION = 1;

/** The row's stable key (export writes it): an import matches by it first, so a renamed row keeps its history. */
const keyField = z.string({ error: 'key must be a string' }).max(40, 'key is at most 40 characters').optional();

const monitorDoc = z.strictObject({
    key: keyField,
    name: nameField(),
    type: z.enum(MONITOR_TYPES, { error: `type must be one of ${MONITOR_TYPES.join(', ')}` }),
    is_enabled: z.boolean({ error: 'is_enabled must be true or false' }).default(true),
    settings: z.record(z.string(), z.unknown(), { error: 'settings must be an object' }).default({}),
    /** Absent or null: every location checks it (common/locations.ts). */
    locations: locationsField.optional(),
    /** Absent: 1. */
    confirm: confirmField.optional(),
});

const serviceDoc = z.strictObject({
    key: keyField,
    name: nameField(),
    type: z.enum(SERVICE_TYPES, { error: `type must be one of ${SERVICE_TYPES.join(', ')}` }),
    address: targetAddress,
    is_enabled: z.boolean({ error: 'is_enabled must be true or false' }).default(true),
});

const serverDoc = z.strictObject({
    key: keyField,
    name: nameField(),
    address: targetAddress,
    is_enabled: z.boolean({ error: 'is_enabled must be true or false' }).default(true),
    services: z.array(serviceDoc, { error: 'services must be a list' }).default([]),
    monitors: z.array(monitorDoc, { error: 'monitors must be a list' }).default([]),
});

const configurationDoc = z.strictObject({
    key: keyField,
    name: nameField(),
    chain: z.string({ error: 'Chain is required' }).trim().min(1, 'Chain is required').max(100),
    is_enabled: z.boolean({ error: 'is_enabled must be true or false' }).default(true),
    chain_endpoints: chainEndpointsField.default([]),
    channels: z.array(nameField('Channel name is required'), { error: 'channels must be a list' }).default([]),
    servers: z.array(serverDoc, { error: 'servers must be a list' }).default([]),
    /** Monitors that read no service of a server (urlCheck). */
    monitors: z.array(monitorDoc, { error: 'monitors must be a list' }).default([]),
});

const documentSchema = z.strictObject({
    version: z.literal(DOCUMENT_VERSION, { error: `version must be ${DOCUMENT_VERSION}` }),
    company: z.string().optional(),
    configurations: z.array(configurationDoc, { error: 'configurations must be a list' }),
});

export type ConfigDocument = z.infer<typeof documentSchema>;
export type ConfigurationDoc = ConfigDocument['configurations'][number];
export type ServerDoc = ConfigurationDoc['servers'][number];
export type ServiceDoc = ServerDoc['services'][number];
export type MonitorDoc = ServerDoc['monitors'][number];

/** `configurations[2].monitors[0].type` */
export function pathOf(path: readonly PropertyKey[]): string {
    return path.reduce<string>(
        (out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
        ''
    );
}

/** Parses and validates a document; every wrong field is named by its path, and nothing is half-accepted. */
export function parseDocument(
    raw: unknown
): { ok: true; doc: ConfigDocument } | { ok: false; errors: Record<string, string> } {
    const parsed = documentSchema.safeParse(raw);
    const errors: Record<string, string> = {};
    if (!parsed.success) {
        for (const issue of parsed.error.issues) {
            const at = pathOf(issue.path) || 'document';
            const key = issue.code === 'unrecognized_keys' ? `${at ? `${at}.` : ''}${issue.keys.join(', ')}` : at;
            errors[key] ??= issue.code === 'unrecognized_keys' ? 'Unknown field' : issue.message;
        }
        // The settings of monitors that are well formed otherwise are judged too, so one answer names every problem.
        for (const { monitor, at } of rawMonitors(raw)) {
            const m = monitorDoc.safeParse(monitor);
            if (m.success) checkMonitor(m.data, at, errors);
        }
        return { ok: false, errors };
    }
    const doc = parsed.data;
    unique(doc.configurations, 'configurations', errors);
    doc.configurations.forEach((c, ci) => {
        const at = `configurations[${ci}]`;
        unique(c.servers, `${at}.servers`, errors);
        unique(
            c.channels.map((name) => ({ name })),
            `${at}.channels`,
            errors
        );
        c.monitors.forEach((m, mi) => {
            checkMonitor(m, `${at}.monitors[${mi}]`, errors);
            if (needsServer(m.type))
                errors[`${at}.monitors[${mi}].type`] ??= `A ${m.type} monitor belongs under a server`;
        });
        unique(c.monitors, `${at}.monitors`, errors);
        c.servers.forEach((s, si) => {
            unique(s.services, `${at}.servers[${si}].services`, errors);
            unique(s.monitors, `${at}.servers[${si}].monitors`, errors);
            s.monitors.forEach((m, mi) => {
                checkMonitor(m, `${at}.servers[${si}].monitors[${mi}]`, errors);
            });
        });
    });
    return Object.keys(errors).length ? { ok: false, errors } : { ok: true, doc };
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const field = (v: unknown, key: string): unknown =>
    v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;

/** Every monitor of a document that failed the schema, with its path. */
function* rawMonitors(raw: unknown): Generator<{ monitor: unknown; at: string }> {
    for (const [ci, c] of list(field(raw, 'configurations')).entries()) {
        for (const [mi, monitor] of list(field(c, 'monitors')).entries())
            yield { monitor, at: `configurations[${ci}].monitors[${mi}]` };
        for (const [si, s] of list(field(c, 'servers')).entries())
            for (const [mi, monitor] of list(field(s, 'monitors')).entries())
                yield { monitor, at: `configurations[${ci}].servers[${si}].monitors[${mi}]` };
    }
}

/** Names identify rows on import, so two siblings may not share one. */
function unique(items: { name: string }[], at: string, errors: Record<string, string>): void {
    const seen = new Set<string>();
    items.forEach((item, i) => {
        if (seen.has(item.name)) errors[`${at}[${i}].name`] ??= `"${item.name}" is named twice here`;
        seen.add(item.name);
    });
}

/** The type's own settings rules, the same the API applies; the settings come back normalised (defaults filled). */
function checkMonitor(m: MonitorDoc, at: string, errors: Record<string, string>): void {
    const problem = confirmProblem(m.locations, m.confirm);
    if (problem) errors[`${at}.confirm`] ??= problem;
    const checked = checkSettings(m.type, JSON.stringify(m.settings));
    if (!checked.ok) {
        for (const [field, message] of Object.entries(checked.errors))
            errors[field === 'configuration_object' ? `${at}.settings` : `${at}.settings.${field}`] ??= message;
        return;
    }
    m.settings = checked.settings;
}
