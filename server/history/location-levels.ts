import type { LocationLevel } from '../../common/locations';

const CODE: Record<LocationLevel['level'], string> = { ok: 'o', warning: 'w', error: 'e', none: 'n' };
const LEVEL: Record<string, LocationLevel['level']> = { o: 'ok', w: 'warning', e: 'error', n: 'none' };

/**
 * `fra-1:e,local:o`: a few bytes per location on a row written every check, where JSON would take three times as
 * many. Location names hold no `:` or `,` (LOCATION_NAME), so the text splits back unambiguously.
 */
export function packLocationLevels(list: readonly LocationLevel[]): string {
    return list.map((l) => `${l.location}:${CODE[l.level]}`).join(',');
}

/** The packed text back as a list; null stays null (a monitor checked from one place). */
export function unpackLocationLevels(text: string | null): LocationLevel[] | null {
    if (!text) return null;
    return text.split(',').map((part) => {
        const at = part.lastIndexOf(':');
        return { location: part.slice(0, at), level: LEVEL[part.slice(at + 1)] ?? 'none' };
    });
}
