import type { Monitor } from '../../../common/entities';
import {
    defaultSettings,
    MONITOR_CATALOGUE,
    MONITOR_TYPES,
    type MonitorType,
    needsServer,
    type SettingField,
} from '../../../common/monitor-types';

export const TYPE_REQUIRED = 'Please select a type!';
export const SERVER_REQUIRED = 'Please select a server!';

/**
 * What the monitor dialog edits. Settings are kept per type (`settings.blockCheck.miss_tolerance`), so
 * switching the type shows that type's defaults and switching back finds the values typed before.
 */
export interface MonitorFormValues {
    id?: number;
    type: MonitorType | '';
    name: string;
    server_id: number | '' | null;
    is_enabled: boolean;
    settings: Partial<Record<MonitorType, Record<string, unknown>>>;
    /** The probe locations, comma-separated; empty checks from every location. */
    locations: string;
    /** How many locations must see a failure before Error. */
    confirm: number | '';
}

export const isMonitorType = (value: unknown): value is MonitorType =>
    typeof value === 'string' && (MONITOR_TYPES as readonly string[]).includes(value);

/** The stored settings of a monitor over its type's defaults; unreadable JSON counts as none. */
export function storedSettings(type: MonitorType, json: string | null | undefined): Record<string, unknown> {
    let parsed: unknown = {};
    try {
        parsed = json ? JSON.parse(json) : {};
    } catch {
        parsed = {};
    }
    const stored = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
    return { ...defaultSettings(type), ...(stored as Record<string, unknown>) };
}

export function toMonitorFormValues(record?: Monitor, defaultServerId?: number | null): MonitorFormValues {
    if (!record) {
        return {
            type: '',
            name: '',
            server_id: defaultServerId ?? null,
            is_enabled: true,
            settings: {},
            locations: '',
            confirm: 1,
        };
    }
    return {
        id: record.id,
        type: record.type,
        name: record.name,
        server_id: record.server_id ?? record.server?.id ?? null,
        is_enabled: record.is_enabled,
        settings: isMonitorType(record.type)
            ? { [record.type]: storedSettings(record.type, record.configuration_object) }
            : {},
        locations: record.locations?.join(', ') ?? '',
        confirm: record.confirm ?? 1,
    };
}

/** The type's known settings, numbers as numbers; empty values are left out so the API applies its defaults. */
export function settingsOf(type: MonitorType, values: Record<string, unknown> = {}): Record<string, number | string> {
    const out: Record<string, number | string> = {};
    for (const field of MONITOR_CATALOGUE[type].settings) {
        const value = values[field.key];
        if (value === undefined || value === null || String(value).trim() === '') continue;
        if (field.kind === 'number') {
            const n = Number(value);
            out[field.key] = Number.isNaN(n) ? String(value) : n;
        } else {
            out[field.key] = String(value).trim();
        }
    }
    return out;
}

/**
 * Settings the dialog does not show: a URL check's own `name` is the monitor's name (as for the URL check a
 * service creates, docs/spec.md §9), so the dialog has one Name field only.
 */
export const isDerivedSetting = (field: SettingField) => field.fromMonitorName === true;

/**
 * The monitor name is marked required, but an empty name is only reported once the type (and, where needed,
 * the server) is chosen, so 'Please select a type!' and 'Please select a server!' (docs/spec.md §5) are not hidden by it.
 */
export const validateMonitorName = Object.assign(
    (value: unknown, values: Record<string, unknown>) => {
        const type = values?.type;
        if (!isMonitorType(type)) return undefined;
        if (
            needsServer(type) &&
            (values.server_id === null || values.server_id === '' || values.server_id === undefined)
        ) {
            return undefined;
        }
        return typeof value === 'string' && value.trim() !== '' ? undefined : 'ra.validation.required';
    },
    { isRequired: true }
);

/** POST/PUT /monitors body (docs/spec.md §7): configuration_object is a JSON string; PUT carries the id. */
export function toMonitorBody(values: MonitorFormValues & { type: MonitorType }, configurationId: number) {
    const serverId = values.server_id === '' || values.server_id === undefined ? null : values.server_id;
    const name = values.name.trim();
    const settings = { ...values.settings[values.type] };
    for (const field of MONITOR_CATALOGUE[values.type].settings)
        if (isDerivedSetting(field)) settings[field.key] = name;
    return {
        ...(values.id !== undefined ? { id: values.id } : {}),
        name,
        is_enabled: values.is_enabled,
        configuration_id: configurationId,
        server_id: serverId === null ? null : Number(serverId),
        type: values.type,
        configuration_object: JSON.stringify(settingsOf(values.type, settings)),
        ...locationFields(values),
    };
}

/** `locations` (null for every location) and `confirm`, as the API takes them; absent when the form has none. */
function locationFields(values: Pick<MonitorFormValues, 'locations' | 'confirm'>) {
    if (values.locations === undefined && values.confirm === undefined) return {};
    const names = (values.locations ?? '')
        .split(/[\s,]+/)
        .map((l) => l.trim())
        .filter(Boolean);
    const confirm = values.confirm === '' || values.confirm === undefined ? 1 : Number(values.confirm);
    return { locations: names.length ? names : null, confirm };
}

const TOP_FIELDS = new Set(['name', 'type', 'server_id', 'is_enabled', 'locations', 'confirm']);

/** Server field errors placed on the form: setting errors (keyed by setting name) go under that setting. */
export function toFormErrors(errors: Record<string, string> | undefined, type: MonitorType) {
    if (!errors) return undefined;
    const settingKeys = new Set(MONITOR_CATALOGUE[type].settings.map((field) => field.key));
    const top: Record<string, string> = {};
    const settings: Record<string, string> = {};
    for (const [key, message] of Object.entries(errors)) {
        if (TOP_FIELDS.has(key)) top[key] = message;
        else if (settingKeys.has(key)) settings[key] = message;
    }
    return Object.keys(settings).length > 0 ? { ...top, settings: { [type]: settings } } : top;
}
