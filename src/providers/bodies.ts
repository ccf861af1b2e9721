/** What the console sends on POST and PUT: the fields each resource's API accepts, nothing react-admin only read. */

/** The body fields each resource accepts on POST and PUT (the API rejects unknown fields). */
export const BODY_FIELDS: Record<string, readonly string[]> = {
    companies: ['name', 'is_active', 'max_concurrent_checks', 'min_interval_seconds', 'allowed_networks'],
    users: ['username', 'is_active', 'is_admin', 'is_super_admin', 'company_id', 'raw_password'],
    configurations: ['name', 'chain', 'is_enabled', 'company_id', 'chain_endpoints'],
    servers: ['name', 'is_enabled', 'address', 'configuration_id'],
    monitors: [
        'id',
        'name',
        'is_enabled',
        'configuration_id',
        'server_id',
        'type',
        'configuration_object',
        'service_id',
        'locations',
        'confirm',
    ],
    'notification-channels': ['name', 'type', 'configuration_object', 'is_enabled', 'company_id'],
    services: ['name', 'address', 'is_enabled', 'type', 'server_id'],
    silences: ['monitor_id', 'server_id', 'configuration_id', 'starts_at', 'ends_at', 'reason'],
    'maintenance-windows': [
        'configuration_id',
        'server_id',
        'starts_at',
        'ends_at',
        'repeat_weekly',
        'mutes',
        'reason',
    ],
    'status-pages': [
        'company_id',
        'slug',
        'title',
        'description',
        'is_public',
        'access_key',
        'monitor_ids',
        'display_names',
    ],
};

/** Keeps the resource's body fields; a password is sent only when filled in, never as an empty string. */
export function toBody(resource: string, data: Record<string, unknown>): Record<string, unknown> {
    const fields = BODY_FIELDS[resource];
    const body: Record<string, unknown> = {};
    if (fields) {
        for (const field of fields) if (data[field] !== undefined) body[field] = data[field];
    } else {
        for (const [key, value] of Object.entries(data)) {
            if (!['id', 'created_at', 'updated_at', 'createdAt', 'updatedAt'].includes(key)) body[key] = value;
        }
    }
    if ('raw_password' in body && (typeof body.raw_password !== 'string' || body.raw_password === '')) {
        delete body.raw_password;
    }
    return body;
}
