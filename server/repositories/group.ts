/** Rows grouped by a key, so nesting children under parents stays linear. */
export function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
    const out = new Map<K, T[]>();
    for (const row of rows) {
        const k = key(row);
        const list = out.get(k);
        if (list) list.push(row);
        else out.set(k, [row]);
    }
    return out;
}

/** True for PostgreSQL's unique_violation, whether raised directly or wrapped by Drizzle. */
export function isUniqueViolation(err: unknown): boolean {
    for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
        if ((e as { code?: unknown }).code === '23505') return true;
    }
    return false;
}
