import { z } from 'zod';

/**
 * react-admin's list parameters (`sort=["name","ASC"]`, `range=[0,24]`, `filter={"q":"x"}`), all optional: a bare
 * call gets the whole list in the spec's shape, a call with `range` also gets a `Content-Range` header.
 */
export interface ListQuery {
    sort: { field: string; order: 'ASC' | 'DESC' } | null;
    range: { start: number; end: number } | null;
    filter: Record<string, unknown>;
}

const json = <T extends z.ZodType>(schema: T) =>
    z
        .string()
        .transform((s, ctx) => {
            try {
                return JSON.parse(s) as unknown;
            } catch {
                ctx.addIssue({ code: 'custom', message: 'must be JSON' });
                return z.NEVER;
            }
        })
        .pipe(schema);

/** Names every object has through its prototype: never a field to sort or filter on. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const ownKey = (s: string) => !PROTOTYPE_KEYS.has(s);

export const listQuerySchema = z.looseObject({
    sort: json(
        z.tuple([z.string().max(64).refine(ownKey, 'sort field is not a field'), z.enum(['ASC', 'DESC'])])
    ).optional(),
    range: json(z.tuple([z.number().int().min(0), z.number().int().min(0)])).optional(),
    // Checked on the parsed JSON itself: a record copy would already have turned `__proto__` into a prototype.
    filter: json(
        z
            .unknown()
            .refine((f) => !f || typeof f !== 'object' || Object.keys(f).every(ownKey), 'filter field is not a field')
            .pipe(z.record(z.string(), z.unknown()))
    ).optional(),
});

export function toListQuery(q: z.infer<typeof listQuerySchema>): ListQuery {
    const [start, end] = q.range ?? [0, 0];
    return {
        sort: q.sort ? { field: q.sort[0], order: q.sort[1] } : null,
        range: q.range ? { start, end: Math.max(start, Math.min(end, start + 999)) } : null,
        filter: q.filter ?? {},
    };
}

/** Sorts (by a whitelisted field), slices and returns the page with its Content-Range value. */
export function pageOf<T>(rows: T[], q: ListQuery, resource: string, sortable: Record<string, (row: T) => unknown>) {
    let out = rows;
    const key = q.sort && Object.hasOwn(sortable, q.sort.field) ? sortable[q.sort.field] : undefined;
    if (q.sort && key) {
        const dir = q.sort.order === 'ASC' ? 1 : -1;
        out = [...rows].sort((a, b) => {
            const va = key(a);
            const vb = key(b);
            if (va === vb) return 0;
            if (va === null || va === undefined) return 1;
            if (vb === null || vb === undefined) return -1;
            return (va < vb ? -1 : 1) * dir;
        });
    }
    if (!q.range) return { rows: out, contentRange: null };
    const page = out.slice(q.range.start, q.range.end + 1);
    const last = page.length ? q.range.start + page.length - 1 : q.range.start;
    return { rows: page, contentRange: `${resource} ${q.range.start}-${last}/${rows.length}` };
}
