import { z } from 'zod';

/**
 * Response schemas: every route declares what it answers, per status code, through `answers()`:
 *
 *     app.get('/api/things/:id', { schema: { params: idParams, response: answers({ 200: thing }, 400, 401, 404) } }, …)
 *
 * The schemas fix what leaves the server (responses/serializer.ts) and document it in /api/openapi.json.
 *
 * Objects are plain `z.object`, which strips: a field the schema does not list is left out of the answer, so a
 * column added to a row never leaks by accident. Not `z.strictObject` (an extra field would turn the answer into a
 * 500) nor `z.looseObject` (anything would pass). The price of stripping is that a field a handler returns but the
 * schema forgot silently disappears: so schemas of the shared entities are checked against their types in
 * common/entities.ts (responses/entities.ts), and the serializer reports every dropped field (the OpenAPI test
 * fails on any). Dates are ISO strings, as the handlers already send them.
 */

/** Every error body (architecture §3): a sentence, and for bad input `errors` naming each wrong field. */
export const apiError = z.object({
    message: z.string(),
    errors: z.record(z.string(), z.string()).optional(),
});

const ERRORS = {
    400: 'Bad input: `errors` names each wrong field',
    401: 'Not signed in, or the session or token has ended',
    403: 'Not allowed for this user (read-only users and tokens may not write)',
    404: 'No such row in the caller’s company',
    409: 'Conflicts with an existing row',
    429: 'Too many attempts; try again later',
    502: 'The destination did not answer',
    503: 'The database is not answering',
} as const;
export type ErrorStatus = keyof typeof ERRORS;

/** A time as the API sends it: ISO 8601 in UTC. */
export const timestamp = z.string().meta({ format: 'date-time' });

/**
 * A route's `response`: its successful answers, the error codes it may give (each with the shared error body) and,
 * for every route, 500 (and 503 when the database is down).
 */
export function answers<T extends Record<number, z.ZodType>>(ok: T, ...codes: ErrorStatus[]) {
    const errors: Partial<Record<ErrorStatus | 500, z.ZodType>> = {};
    for (const code of [...codes, 503 as const]) errors[code] = apiError.describe(ERRORS[code]);
    errors[500] = apiError.describe('An unexpected failure, logged on the server');
    return { ...errors, ...ok };
}

/** The answer of a route that answers nothing (204). */
export const noContent = z.null().describe('No content');

/** True when A and B are the same type, optional fields included (mutual assignability would miss those). */
export type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** `Expect<Same<z.output<typeof schema>, Entity>>` fails to compile when a schema and its type differ. */
export type Expect<T extends true> = T;
