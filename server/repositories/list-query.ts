import { and, asc, desc, ilike, inArray, eq, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { badRequest } from '../errors';

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
        z.tuple([z.string().max(64).refine(ownKey, 'sort field is not a field'), z.enum(['ASC', 'DESC'])], {
            error: 'sort must be ["field","ASC" or "DESC"]',
        })
    ).optional(),
    range: json(
        z.tuple([z.number().int().min(0), z.number().int().min(0)], {
            error: 'range must be [first, last], two whole numbers',
        })
    ).optional(),
    // Checked on the parsed JSON itself: a record copy would already have turned `__proto__` into a prototype.
    filter: json(
        z
            .unknown()
            .refine((f) => !f || typeof f !== 'object' || Object.keys(f).every(ownKey), 'filter field is not a field')
            .pipe(z.record(z.string(), z.unknown(), { error: 'filter must be a JSON object' }))
    ).optional(),
});

/** The largest page one request may ask for. */
const MAX_PAGE = 1000;

export function toListQuery(q: z.infer<typeof listQuerySchema>): ListQuery {
    const [start, end] = q.range ?? [0, 0];
    if (q.range && end < start) throw badRequest({ range: 'range must be [first, last] with last ≥ first' });
    return {
        sort: q.sort ? { field: q.sort[0], order: q.sort[1] } : null,
        range: q.range ? { start, end: Math.min(end, start + MAX_PAGE - 1) } : null,
        filter: q.filter ?? {},
    };
}

/** A filter's WHERE part from its value (never empty: empty values are dropped before). */
type FilterSql = (value: unknown, name: string) => SQL | undefined;

/** What one list lets a caller sort and filter on, in SQL. */
export interface ListSpec {
    /** The name in `Content-Range` (react-admin's resource). */
    resource: string;
    /** Sortable fields and their expressions; `id` is also the tie-breaker keeping pages stable. */
    sort: Record<string, AnyPgColumn | SQL>;
    filter: Record<string, FilterSql>;
    id: AnyPgColumn;
    /** Order when the caller names none (ascending id unless said). */
    defaultOrder?: SQL[];
}

/** The SQL parts of one list request: the same `where` serves the page and its count. */
export interface ListPlan {
    where: SQL | undefined;
    orderBy: SQL[];
    /** Set with `range`: the page's rows. */
    page: { limit: number; offset: number } | null;
}

const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * Turns react-admin's parameters into SQL by the list's spec; an unknown sort field or filter names its parameter in
 * a 400, a bad filter value names the filter. `scope` is the caller's company condition, always part of the WHERE:
 * with one, a `company_id` filter is moot and ignored (the company select is the super admin's).
 */
export function planList(q: ListQuery, spec: ListSpec, scope: SQL | undefined): ListPlan {
    const parts: (SQL | undefined)[] = [scope];
    for (const [name, value] of Object.entries(q.filter)) {
        if (scope && name === 'company_id') continue;
        const build = Object.hasOwn(spec.filter, name) ? spec.filter[name] : undefined;
        if (!build) throw badRequest({ filter: `Cannot filter on ${name}` });
        if (!empty(value)) parts.push(build(value, name));
    }
    let orderBy = spec.defaultOrder ?? [asc(spec.id)];
    if (q.sort) {
        const column = Object.hasOwn(spec.sort, q.sort.field) ? spec.sort[q.sort.field] : undefined;
        if (!column) throw badRequest({ sort: `Cannot sort on ${q.sort.field}` });
        const dir = q.sort.order === 'ASC' ? asc : desc;
        // NULLs last either way, as the lists showed them before; the id keeps equal rows in a stable order. An id
        // is never NULL, and `id DESC NULLS LAST` is an order its primary key cannot give: PostgreSQL then sorts the
        // whole table for a page of 25 (20,000 monitors, 50,000 audit entries).
        orderBy = column === spec.id ? [dir(spec.id)] : [sql`${dir(column)} nulls last`, dir(spec.id)];
    }
    return {
        where: and(...parts),
        orderBy,
        page: q.range ? { limit: q.range.end - q.range.start + 1, offset: q.range.start } : null,
    };
}

/** `Content-Range: <resource> first-last/total`, readable by a browser on another origin too. */
export function sendRange(reply: FastifyReply, resource: string, plan: ListPlan, rows: number, total: number): void {
    if (!plan.page) return;
    const first = plan.page.offset;
    const last = rows ? first + rows - 1 : first;
    reply.header('Content-Range', `${resource} ${first}-${last}/${total}`);
    reply.header('Access-Control-Expose-Headers', 'Content-Range');
}

/** A dynamic select (`.$dynamic()`) ordered and, with `range`, cut to the page. */
export function paged<T extends PgSelect>(query: T, plan: ListPlan): T {
    const ordered = query.orderBy(...plan.orderBy);
    return plan.page ? ordered.limit(plan.page.limit).offset(plan.page.offset) : ordered;
}

// Filters every list shares.

const bad = (name: string, text: string) => badRequest({ [name]: `${name} ${text}` });

/** Case-insensitive "contains" on any of the columns, the text taken literally (a typed % or _ is no wildcard). */
export const textFilter =
    (...columns: (AnyPgColumn | SQL)[]): FilterSql =>
    (value, name) => {
        if (typeof value !== 'string' || value.length > 200)
            throw bad(name, 'must be a text of at most 200 characters');
        const needle = value.trim();
        if (!needle) return undefined;
        const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        return or(...columns.map((c) => ilike(c, pattern)));
    };

const toId = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v);
// Ids are PostgreSQL integers: a larger number would fail in the database as a 500 rather than a 400 here.
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 2_147_483_647;

/** One id or, as react-admin's getMany sends them, a list of ids. */
export const idFilter =
    (column: AnyPgColumn): FilterSql =>
    (value, name) => {
        const ids = (Array.isArray(value) ? value : [value]).map(toId);
        if (!ids.every(isId) || ids.length > MAX_PAGE) throw bad(name, 'must be an id or a list of ids');
        return ids.length === 1 ? eq(column, ids[0]) : inArray(column, ids as number[]);
    };

export const boolFilter =
    (column: AnyPgColumn): FilterSql =>
    (value, name) => {
        if (value === true || value === 'true') return eq(column, true);
        if (value === false || value === 'false') return eq(column, false);
        throw bad(name, 'must be true or false');
    };

/** One of a few named values, each its own condition. */
export const choiceFilter =
    (choices: Record<string, SQL | undefined>): FilterSql =>
    (value, name) => {
        if (typeof value !== 'string' || !Object.hasOwn(choices, value)) {
            throw bad(name, `must be one of ${Object.keys(choices).join(', ')}`);
        }
        return choices[value];
    };

/**
 * Sorts and pages a short list that is computed in memory rather than read page by page (the active and upcoming
 * silences and maintenance windows), with the same `Content-Range` as the SQL lists.
 */
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
