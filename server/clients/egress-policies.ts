import { eq } from 'drizzle-orm';
import type { EgressPolicy } from './address-guard';
import type { Db } from '../db/client';
import { companies } from '../db/schema/index';

const TTL_MS = 30_000;

/**
 * Each company's egress policy (its allowed networks), cached briefly: every check asks for it, and a list a
 * super admin changes in this process applies at once (`forget`), one changed by another process within 30 s.
 */
export class EgressPolicies {
    private readonly cache = new Map<number, { at: number; policy: Promise<EgressPolicy> }>();

    constructor(private readonly db: Db) {}

    forCompany(companyId: number): Promise<EgressPolicy> {
        const hit = this.cache.get(companyId);
        if (hit && Date.now() - hit.at < TTL_MS) return hit.policy;
        const policy = this.load(companyId);
        this.cache.set(companyId, { at: Date.now(), policy });
        policy.catch(() => this.cache.delete(companyId));
        return policy;
    }

    forget(companyId: number): void {
        this.cache.delete(companyId);
    }

    private async load(companyId: number): Promise<EgressPolicy> {
        const [row] = await this.db
            .select({ allowedNetworks: companies.allowedNetworks })
            .from(companies)
            .where(eq(companies.id, companyId));
        // A company that is gone reaches no private address.
        return { allowedNetworks: row?.allowedNetworks ?? [] };
    }
}
