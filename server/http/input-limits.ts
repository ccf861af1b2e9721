import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors';

/** Deeper than any configuration the console knows; a 5,000-level document overflows recursive code on its way. */
export const MAX_JSON_DEPTH = 32;
const NUL = '\u0000';
const NUL_MESSAGE = 'must not contain a NUL character';
const DEPTH_MESSAGE = `is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;

/** Nesting depth of JSON text, counted without parsing it (brackets inside strings do not count). */
export function textDepth(text: string): number {
    let depth = 0;
    let max = 0;
    let inString = false;
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (inString) {
            if (c === '\\') i++;
            else if (c === '"') inString = false;
        } else if (c === '"') inString = true;
        else if (c === '{' || c === '[') max = Math.max(max, ++depth);
        else if (c === '}' || c === ']') depth--;
    }
    return max;
}

/**
 * What is wrong with a parsed input value, if anything: a NUL character in a string or key (PostgreSQL refuses
 * it in text, and the failed query would be a 500), or nesting deeper than MAX_JSON_DEPTH. Walked without
 * recursion, so the check itself cannot overflow.
 */
export function inputProblem(value: unknown, depth = 0): string | null {
    const stack: [unknown, number][] = [[value, depth]];
    while (stack.length > 0) {
        const [v, d] = stack.pop() as [unknown, number];
        if (typeof v === 'string') {
            if (v.includes(NUL)) return NUL_MESSAGE;
        } else if (v !== null && typeof v === 'object') {
            if (d >= MAX_JSON_DEPTH) return DEPTH_MESSAGE;
            for (const [k, x] of Object.entries(v)) {
                if (k.includes(NUL)) return NUL_MESSAGE;
                stack.push([x, d + 1]);
            }
        }
    }
    return null;
}

/**
 * JSON text is stored as sent, so an escaped NUL (`\u0000`) would pass as text and come back as a NUL once parsed:
 * in the company's export, whose re-import then fails.
 */
function jsonTextProblem(text: string): string | null {
    if (textDepth(text) > MAX_JSON_DEPTH) return DEPTH_MESSAGE;
    if (!/u0000/i.test(text)) return null;
    try {
        return inputProblem(JSON.parse(text), 1);
    } catch {
        return null; // not JSON: the route names that
    }
}

function fieldProblems(values: unknown, jsonText: (key: string) => boolean): Record<string, string> | null {
    if (values === null || typeof values !== 'object') {
        const problem = inputProblem(values);
        return problem ? { body: `body ${problem}` } : null;
    }
    for (const [key, value] of Object.entries(values)) {
        const field = key.includes(NUL) ? 'body' : key;
        if (field === 'body') return { body: `A field name ${NUL_MESSAGE}` };
        let problem = inputProblem(value, 1);
        if (!problem && typeof value === 'string' && jsonText(key)) problem = jsonTextProblem(value);
        if (problem) return { [field]: `${field} ${problem}` };
    }
    return null;
}

/** Configuration objects arrive as JSON text too (docs/spec.md §7); their depth counts as if they were parsed. */
const JSON_TEXT_FIELDS = new Set(['configuration_object']);

/** Refuses, with a 400 naming the field, input no route could store or handle: NUL characters, deep nesting. */
export function registerInputLimits(app: FastifyInstance): void {
    app.addHook('preValidation', async (req) => {
        if (req.body === undefined) return;
        const errors = fieldProblems(req.body, (k) => JSON_TEXT_FIELDS.has(k));
        if (errors) throw badRequest(errors, Object.values(errors)[0]);
    });
    // Query and path parameters are checked as the routes see them, after their JSON (filter, sort) is parsed.
    app.addHook('preHandler', async (req) => {
        for (const values of [req.params, req.query]) {
            const errors = values ? fieldProblems(values, () => false) : null;
            if (errors) throw badRequest(errors, Object.values(errors)[0]);
        }
    });
}
