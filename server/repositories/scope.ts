import { eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Actor } from '../auth/actor';
import type { Db } from '../db/client';
import { companies } from '../db/schema';
import { badRequest, forbidden } from '../errors';

/** The company whose rows a caller sees (companyScope); null means every company. */
export type Scope = number | null;

/** The WHERE part that keeps a query to the caller's company; undefined for a super admin. */
export function inScope(column: AnyPgColumn, scope: Scope): SQL | undefined {
    return scope === null ? undefined : eq(column, scope);
}

/** A name and id, as audit entries and events refer to rows. */
export interface Ref {
    id: number;
    name: string;
}

/**
 * The company a new row goes to. A super admin names it with `company_id`, falling back to their own company
 * when they have one; anyone else always writes to their own company, and naming another one is refused.
 */
export async function targetCompany(db: Db, actor: Actor, requested: number | null | undefined): Promise<number> {
    if (!actor.isSuperAdmin) {
        if (actor.companyId === null) throw forbidden('You do not belong to a company');
        if (requested !== undefined && requested !== null && requested !== actor.companyId) {
            throw badRequest({ company_id: 'You can only use your own company' });
        }
        return actor.companyId;
    }
    const id = requested ?? actor.companyId;
    if (id === null) throw badRequest({ company_id: 'Please select a company' });
    const [row] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, id));
    if (!row) throw badRequest({ company_id: 'Company does not exist' });
    return id;
}
