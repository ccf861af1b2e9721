import { z } from 'zod';

/** A row id in a path: decimal digits only (no `0x10`, `1e3`, ` 1`), positive, within the integer column. */
export const idParams = z.object({
    id: z
        .string()
        .regex(/^\d{1,10}$/, 'id must be a number')
        .transform(Number)
        .pipe(z.number().int().positive('id must be a positive number').max(2_147_483_647, 'id is out of range')),
});

/** Read-only fields react-admin echoes back in update bodies: accepted and ignored, everything else unknown is refused. */
export const readOnlyFields = {
    id: z.unknown().optional(),
    created_at: z.unknown().optional(),
    updated_at: z.unknown().optional(),
    createdAt: z.unknown().optional(),
    updatedAt: z.unknown().optional(),
};

export function stripReadOnly<T extends Record<string, unknown>>(body: T): Omit<T, keyof typeof readOnlyFields> {
    const { id: _i, created_at: _c, updated_at: _u, createdAt: _c2, updatedAt: _u2, ...rest } = body;
    return rest;
}

/** An empty string from a form means "not filled in". */
export const optionalText = (schema: z.ZodString) =>
    z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

/** Zod's issues of a failed parse, keyed by field as every 400 of the API is. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
    const errors: Record<string, string> = {};
    for (const issue of error.issues) {
        const field = issue.code === 'unrecognized_keys' ? (issue.keys[0] ?? 'body') : String(issue.path[0] ?? 'body');
        errors[field] ??= issue.code === 'unrecognized_keys' ? `Unknown field ${field}` : issue.message;
    }
    return errors;
}
