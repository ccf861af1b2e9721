/**
 * A company's share of the monitoring engine: how many of its checks may be in flight at once, and the
 * shortest interval its monitors run at. A super admin sets both on the company.
 */
export const QUOTA_DEFAULTS = { max_concurrent_checks: 64, min_interval_seconds: 1 } as const;

/** The engine runs at most 256 checks at once, so a larger share could never be used. */
export const MAX_CONCURRENT_CHECKS_LIMIT = 256;
export const MIN_INTERVAL_SECONDS_LIMIT = 86_400;
