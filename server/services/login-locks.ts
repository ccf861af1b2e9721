/**
 * Locks per (account, source address), so guessing a password can never lock its owner out.
 *
 * - An address with PAIR_LOCK_AFTER failures on an account in a run is refused on it, the right password
 *   included, until LOCK_MS after its last counted failure.
 * - Once the account has ACCOUNT_CAP failures in a run (the global cap), any address with a failure on it is
 *   refused: each further address gets one guess before it is locked too.
 * - An address without failures on the account is never refused: the owner gets in with the right password.
 * - Unlocking an account from the console's host (`npm run cli unlock`) clears its run in the database, which
 *   voids every lock on the account here.
 *
 * `LoginLocks` keeps them in memory (bounded): a restart forgets the locks, which an attacker cannot cause. In the
 * cluster profile every `web` process must see the same locks, so `RedisLoginLocks` (login-locks-redis.ts) keeps
 * them in Redis instead; server/assembly/shared-state.ts picks one.
 */
/** A run of failures ends after an hour without one; the next failure starts counting from 1 again. */
export const FAILURE_WINDOW_MS = 3600_000;
export const PAIR_LOCK_AFTER = 10;
export const ACCOUNT_CAP = 50;
export const LOCK_MS = 15 * 60_000;
const MAX_ACCOUNTS = 10_000;
const MAX_ADDRESSES_PER_ACCOUNT = 1_000;

/** Usernames that do not exist whose failure runs are kept in memory. */
const UNKNOWN_CAP = 10_000;

export type FailureRun = { failedLogins: number; lastFailedLoginAt: Date | null };

/**
 * The sign-in locks and the failure runs of usernames that do not exist (counted like real accounts', so the
 * delay does not tell which usernames exist). Real accounts' runs are in the database (users.failed_logins).
 */
export interface LoginLockStore {
    /** Whether `address` is refused on `username`, given the account's failures in its current run. */
    locked(username: string, address: string, accountFailures: number): Promise<boolean>;
    /** One more failure of `address` on `username`. */
    count(username: string, address: string): Promise<void>;
    /** The account was unlocked (its run cleared in the database): every address starts afresh. */
    forget(username: string): Promise<void>;
    /** The failure run of a username that does not exist. */
    unknownRun(username: string): Promise<FailureRun>;
    /** One more failure of a username that does not exist. */
    countUnknown(username: string): Promise<void>;
}

/** Failures of a run, 0 once its last failure is `windowMs` old. */
export function runFailures(run: FailureRun | undefined, windowMs: number, now: number): number {
    const last = run?.lastFailedLoginAt?.getTime();
    return run && last !== undefined && now - last < windowMs ? run.failedLogins : 0;
}

/** The lock rule above, given the address's own run on the account and the account's failures. */
export function isLocked(
    mine: FailureRun | undefined,
    accountFailures: number,
    windowMs: number,
    now: number
): boolean {
    const last = mine?.lastFailedLoginAt?.getTime();
    if (last === undefined || now - last >= LOCK_MS) return false;
    const failures = runFailures(mine, windowMs, now);
    return failures >= PAIR_LOCK_AFTER || (accountFailures >= ACCOUNT_CAP && failures > 0);
}

export class LoginLocks implements LoginLockStore {
    private readonly accounts = new Map<string, Map<string, FailureRun>>();
    private readonly unknown = new Map<string, FailureRun>();

    constructor(private readonly windowMs: number) {}

    private failures(run: FailureRun | undefined, now: number): number {
        return runFailures(run, this.windowMs, now);
    }

    async locked(username: string, address: string, accountFailures: number, now = Date.now()): Promise<boolean> {
        return isLocked(this.accounts.get(username)?.get(address), accountFailures, this.windowMs, now);
    }

    async unknownRun(username: string): Promise<FailureRun> {
        return this.unknown.get(username) ?? { failedLogins: 0, lastFailedLoginAt: null };
    }

    async countUnknown(username: string, now = Date.now()): Promise<void> {
        const failedLogins = this.failures(this.unknown.get(username), now) + 1;
        this.unknown.delete(username);
        this.unknown.set(username, { failedLogins, lastFailedLoginAt: new Date(now) });
        if (this.unknown.size > UNKNOWN_CAP) this.unknown.delete(this.unknown.keys().next().value ?? username);
    }

    async count(username: string, address: string, now = Date.now()): Promise<void> {
        let byAddress = this.accounts.get(username);
        if (!byAddress) {
            if (this.accounts.size >= MAX_ACCOUNTS) this.accounts.delete(this.accounts.keys().next().value ?? '');
            byAddress = new Map();
            this.accounts.set(username, byAddress);
        }
        const failedLogins = this.failures(byAddress.get(address), now) + 1;
        byAddress.delete(address);
        if (byAddress.size >= MAX_ADDRESSES_PER_ACCOUNT) byAddress.delete(byAddress.keys().next().value ?? '');
        byAddress.set(address, { failedLogins, lastFailedLoginAt: new Date(now) });
    }

    async forget(username: string): Promise<void> {
        this.accounts.delete(username);
    }
}
