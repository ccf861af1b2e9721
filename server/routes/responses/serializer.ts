import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** A field an answer carried that its response schema does not list, as `results[].password_hash`. */
export type DroppedField = string;

/** Rows and literals; a Date or a Buffer serializes as a whole. */
const isPlainObject = (v: object): v is Record<string, unknown> => {
    const proto = Object.getPrototypeOf(v);
    return proto === Object.prototype || proto === null;
};

/** The paths of `sent` (what the handler returned) that `kept` (what the schema let through) no longer has. */
export function droppedFields(sent: unknown, kept: unknown): DroppedField[] {
    const out = new Set<DroppedField>();
    walk(sent, kept, '', out);
    return [...out];
}

/** Runs on every answer: one pass, allocating only the paths of nested objects. */
function walk(sent: unknown, kept: unknown, at: string, out: Set<DroppedField>): void {
    if (typeof sent !== 'object' || sent === null || typeof kept !== 'object' || kept === null) return;
    if (Array.isArray(sent)) {
        if (!Array.isArray(kept)) return;
        const item = `${at}[]`;
        for (let i = 0; i < sent.length; i++) walk(sent[i], kept[i], item, out);
        return;
    }
    if (!isPlainObject(sent)) return;
    const k = kept as Record<string, unknown>;
    for (const key in sent) {
        const value = sent[key];
        if (value === undefined || !Object.hasOwn(sent, key)) continue;
        if (!Object.hasOwn(k, key)) out.add(at ? `${at}.${key}` : key);
        else if (typeof value === 'object' && value !== null) walk(value, k[key], at ? `${at}.${key}` : key, out);
    }
}

/**
 * Serializes answers through their route's zod response schema. Objects in those schemas strip what they do not
 * list (see responses/answers.ts), so no unlisted field (a hash, a secret) ever leaves the server; a field a handler
 * returns but its schema forgot would vanish silently, so each one is reported, once per route and path, to
 * `onDropped` (the app logs it; the OpenAPI test fails on it). An answer its schema refuses is sent as built and
 * reported to `onMismatch`.
 */
export function responseSerializer(
    onDropped: (route: string, fields: DroppedField[]) => void,
    onMismatch: (route: string, err: Error) => void
): FastifySerializerCompiler<z.ZodType> {
    return ({ schema, method, url }) => {
        const route = `${method} ${url}`;
        const reported = new Set<string>();
        return (data) => {
            const result = z.safeEncode(schema, data);
            if (!result.success) {
                // A handler and its schema disagree (a bug, which the OpenAPI test catches): the reader still gets
                // the answer as the handler built it rather than a 500, and the mismatch is logged once.
                if (!reported.has('')) {
                    reported.add('');
                    onMismatch(route, new ResponseSerializationError(method, url, { cause: result.error }));
                }
                return JSON.stringify(data);
            }
            const fresh = droppedFields(data, result.data).filter((f) => !reported.has(f));
            if (fresh.length > 0) {
                for (const f of fresh) reported.add(f);
                onDropped(route, fresh);
            }
            return JSON.stringify(result.data);
        };
    };
}
