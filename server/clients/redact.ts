const SNIPPET_BYTES = 256;

/** Removes credentials and Telegram bot tokens from any text that may hold a URL. */
export function redact(text: string): string {
    return text
        .replace(/\/\/[^/\s@]*@/g, '//')
        .replace(/\/bot[^/?#\s]+/gi, '/bot***')
        .replace(/\b\d{5,}(?::|%3A)[A-Za-z0-9_-]{30,}\b/gi, '***');
}

/**
 * `redact` plus every form of one known bot token a Telegram answer may echo: whole, URL-encoded (`%3A`), or only
 * its secret half (which alone is enough to impersonate the bot together with the public bot id).
 */
export function redactToken(text: string, token: string): string {
    let out = text;
    const half = token.slice(token.indexOf(':') + 1);
    for (const form of [token, encodeURIComponent(token), half, encodeURIComponent(half)]) {
        if (form.length >= 8) out = out.split(form).join('***');
    }
    // Case-insensitive percent-encoding (`%3a`) of the whole token.
    const encoded = token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(':', '(?::|%3A)');
    return redact(out.replace(new RegExp(encoded, 'gi'), '***'));
}

export function redactUrl(url: URL | string): string {
    try {
        const u = new URL(String(url));
        u.username = '';
        u.password = '';
        return redact(u.toString());
    } catch {
        return redact(String(url)).slice(0, 200);
    }
}

/** At most `maxBytes` of `text` (on a character boundary), control characters and runs of whitespace folded. */
export function snippet(text: string, maxBytes = SNIPPET_BYTES): string {
    const flat = redact(text)
        // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
        .replace(/[\u0000-\u001f\u007f]+/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    const bytes = Buffer.from(flat, 'utf8');
    if (bytes.length <= maxBytes) return flat;
    // Decoding a cut buffer may end in a replacement character; drop it.
    return `${bytes
        .subarray(0, maxBytes - 3)
        .toString('utf8')
        .replace(/\uFFFD$/, '')}…`;
}
