/**
 * What one imported document may expand to. YAML aliases repeat a node without repeating its text: a 412 KiB
 * document with one anchored list aliased 99 times stood for 400,000 monitors. The document is measured as it
 * expands, and the walk stops at the first limit, so measuring costs at most the limits themselves.
 */
export const IMPORT_LIMITS = {
    /** Monitors in the whole document. */
    monitors: 5_000,
    /** Objects and lists, each alias counted again. */
    objects: 100_000,
    /** Characters of keys and text values, each alias counted again. */
    bytes: 4 * 1024 * 1024,
} as const;

/** The limit the document goes past, as a sentence naming it, or null when it stays within every limit. */
export function beyondImportLimits(document: unknown): string | null {
    let monitors = 0;
    let objects = 0;
    let bytes = 0;
    const stack: [unknown, string | null][] = [[document, null]];
    while (stack.length > 0) {
        const [value, key] = stack.pop() as [unknown, string | null];
        if (typeof value === 'string') bytes += value.length;
        if (bytes > IMPORT_LIMITS.bytes)
            return `The document expands to more than ${IMPORT_LIMITS.bytes / 1024 / 1024} MiB of text (the import limit)`;
        if (value === null || typeof value !== 'object') continue;
        if (++objects > IMPORT_LIMITS.objects)
            return `The document expands to more than ${IMPORT_LIMITS.objects} objects and lists (the import limit)`;
        if (Array.isArray(value)) {
            if (key === 'monitors') monitors += value.length;
            for (const item of value) stack.push([item, null]);
        } else {
            for (const [k, v] of Object.entries(value)) {
                bytes += k.length;
                stack.push([v, k]);
            }
        }
        if (monitors > IMPORT_LIMITS.monitors)
            return `The document has more than ${IMPORT_LIMITS.monitors} monitors (the import limit)`;
    }
    return null;
}
