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
 * Kept in memory (bounded): a restart forgets the locks, which an attacker cannot cause.
 */
export const PAIR_LOCK_AFTER = 10;
export const ACCOUNT_CAP = 50;
export const LOCK_MS = 15 * 60_000;
const MAX_ACCOUNTS = 10_000;
const MAX_ADDRESSES_PER_ACCOUNT = 1_000;

export type FailureRun = { failedLogins: number; lastFailedLoginAt: Date | null };

export class LoginLocks {
    private readonly accounts = new Map<string, Map<string, FailureRun>>();

    constructor(private readonly windowMs: number) {}

    private failures(run: FailureRun | undefined, now: number): number {
        const last = run?.lastFailedLoginAt?.getTime();
        return run && last !== undefined && now - last < this.windowMs ? run.failedLogins : 0;
    }

    /** Whether `address` is refused on `username`, given the account's failures in its current run. */
    locked(username: string, address: string, accountFailures: number, now = Date.now()): boolean {
        const run = this.accounts.get(username)?.get(address);
        const last = run?.lastFailedLoginAt?.getTime();
        if (last === undefined || now - last >= LOCK_MS) return false;
        const mine = this.failures(run, now);
        return mine >= PAIR_LOCK_AFTER || (accountFailures >= ACCOUNT_CAP && mine > 0);
    }

    count(username: string, address: string, now = Date.now()): void {
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

    /** The account was unlocked (its run cleared in the database): every address starts afresh. */
    forget(username: string): void {
        this.accounts.delete(username);
    }
}
