/** How the engine words errors, durations and times in its messages; imports nothing, so any engine file may use it. */

/** Error text for anything a client, converter or read threw (clients throw sentences already). */
export function errorText(err: unknown): string {
    return (err instanceof Error && err.message) || String(err);
}

/** A short duration for a message: seconds below two minutes, minutes below two hours, then hours. */
export function formatDuration(ms: number): string {
    const s = Math.round(ms / 1000);
    if (s < 120) return `${s} s`;
    if (s < 7200) return `${Math.round(s / 60)} min`;
    return `${(s / 3600).toFixed(1)} h`;
}

export function formatTime(ms: number): string {
    return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
