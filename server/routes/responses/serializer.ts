import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** A field an answer carried that its response schema does not list, as `results[].password_hash`. */
export type DroppedField = string;

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    const proto = Object.getPrototypeOf(v);
    return proto === Object.prototype || proto === null;
};

/** The paths of `sent` (what the handler returned) that `kept` (what the schema let through) no longer has. */
export function droppedFields(sent: unknown, kept: unknown, at = ''): DroppedField[] {
    if (Array.isArray(sent) && Array.isArray(kept)) {
        const out = new Set<string>();
        sent.forEach((item, i) => {
            for (const p of droppedFields(item, kept[i], `${at}[]`)) out.add(p);
        });
        return [...out];
    }
    if (!isPlainObject(sent) || !isPlainObject(kept)) return [];
    const out: DroppedField[] = [];
    for (const [key, value] of Object.entries(sent)) {
        const path = at ? `${at}.${key}` : key;
        if (value === undefined) continue;
        if (!Object.hasOwn(kept, key)) out.push(path);
        else out.push(...droppedFields(value, kept[key], path));
    }
    return out;
}

/**
 * Serializes answers through their route's zod response schema. Objects in those schemas strip what they do not
 * list (see responses/answers.ts), so no unlisted field (a hash, a secret) ever leaves the server; a field a handler
 * returns but its schema forgot would vanish silently, so each one is reported, once per route and path, to
 * `onDropped` (the app logs it; the OpenAPI test fails on it).
 */
export function responseSerializer(
    onDropped: (route: string, fields: DroppedField[]) => void
): FastifySerializerCompiler<z.ZodType> {
    return ({ schema, method, url }) => {
        const route = `${method} ${url}`;
        const reported = new Set<string>();
        return (data) => {
            const result = z.safeEncode(schema, data);
            if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
            const fresh = droppedFields(data, result.data).filter((f) => !reported.has(f));
            if (fresh.length > 0) {
                for (const f of fresh) reported.add(f);
                onDropped(route, fresh);
            }
            return JSON.stringify(result.data);
        };
    };
}
