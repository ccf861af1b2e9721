import { z } from 'zod';
import { LOCATION_NAME, MAX_LOCATIONS } from '../../common/locations';

/** A monitor's `locations`: null (or absent) checks it from every location. */
export const locationsField = z
    .array(
        z
            .string({ error: 'locations must be a list of location names' })
            .trim()
            .regex(LOCATION_NAME, 'A location is named with letters, digits, - and _ (at most 40)'),
        { error: 'locations must be a list of location names, or null for all' }
    )
    .min(1, 'locations needs at least one location, or null for all')
    .max(MAX_LOCATIONS, `locations may name at most ${MAX_LOCATIONS}`)
    .refine((l) => new Set(l).size === l.length, 'locations names a location twice')
    .nullable();

/** A monitor's `confirm`: how many locations must see a failure before it is in Error. */
export const confirmField = z
    .number({ error: 'confirm must be a whole number of locations, at least 1' })
    .int('confirm must be a whole number of locations, at least 1')
    .min(1, 'confirm must be a whole number of locations, at least 1')
    .max(MAX_LOCATIONS, `confirm may be at most ${MAX_LOCATIONS}`);

/** Why `confirm` cannot hold with these `locations` (more failures asked for than locations check), or null. */
export function confirmProblem(locations: readonly string[] | null | undefined, confirm: number | undefined) {
    if (!locations || confirm === undefined || confirm <= locations.length) return null;
    return `confirm cannot be more than the ${locations.length} location${locations.length === 1 ? '' : 's'} in locations`;
}
