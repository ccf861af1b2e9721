import { z } from 'zod';
import { badRequest } from '../errors';
import type { TargetField } from './targets';

export const REASON_MAX = 500;
/** How far ahead a silence may end or a window may start. */
export const HORIZON_MS = 366 * 24 * 3600_000;

const ref = (what: string) =>
    z.preprocess(
        (v) => (v === '' || v === undefined ? null : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
        z
            .number({ error: `${what} must be an id` })
            .int(`${what} must be an id`)
            .positive(`${what} must be an id`)
            .max(2_147_483_647, `${what} not found`)
            .nullable()
    );

export const targetRefs = {
    monitor_id: ref('Monitor').optional(),
    server_id: ref('Server').optional(),
    configuration_id: ref('Configuration').optional(),
};

export const instant = (field: string) =>
    z.preprocess(
        (v) => (v instanceof Date ? v.toISOString() : v),
        z.iso.datetime({ offset: true, error: `${field} must be an ISO date and time` })
    );

export const reasonField = z
    .string({ error: 'Please give a reason' })
    .trim()
    .min(1, 'Please give a reason')
    .max(REASON_MAX, `reason must be at most ${REASON_MAX} characters`);

/** The one target named among `fields`; several or none answer 400 naming the fields. */
export function oneTarget(
    body: Partial<Record<TargetField, number | null>>,
    fields: TargetField[]
): { field: TargetField; id: number } {
    const given = fields.filter((f) => typeof body[f] === 'number');
    const first = given[0];
    if (given.length === 1 && first) return { field: first, id: body[first] as number };
    const message = `Give exactly one of ${fields.join(', ')}`;
    const errors = Object.fromEntries((given.length ? given : [fields[0] ?? 'monitor_id']).map((f) => [f, message]));
    throw badRequest(errors, message);
}
