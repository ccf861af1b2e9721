/** Numbers as the history queries answer them: SQL numerics arrive as strings, a missing value as null. */
export const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
export const round1 = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v) * 10) / 10);
