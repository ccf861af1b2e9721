import { count, eq, sql } from 'drizzle-orm';
import type { Company } from '../../common/entities';
import type { Db } from '../db/client';
import { companies, configurations, notificationChannels, users } from '../db/schema';
import type { CompanyRow } from '../db/schema';
import { conflict, notFound } from '../errors';
import { boolFilter, idFilter, type ListPlan, type ListSpec, paged, textFilter } from './list-query';

export const toCompany = (r: CompanyRow): Company => ({
    id: r.id,
    name: r.name,
    is_active: r.isActive,
    max_concurrent_checks: r.maxConcurrentChecks,
    min_interval_seconds: r.minIntervalSeconds,
    allowed_networks: r.allowedNetworks,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
});

/** The list's react-admin parameters: q on the name, active. */
export const companyList: ListSpec = {
    resource: 'companies',
    id: companies.id,
    sort: {
        id: companies.id,
        name: sql`lower(${companies.name})`,
        is_active: companies.isActive,
        created_at: companies.createdAt,
    },
    filter: {
        id: idFilter(companies.id),
        q: textFilter(companies.name),
        is_active: boolFilter(companies.isActive),
    },
};

/** One page (or, without `range`, all) of the companies a list request names, and how many there are. */
export async function pageCompanies(db: Db, plan: ListPlan) {
    const rows = (await paged(db.select().from(companies).where(plan.where).$dynamic(), plan)).map(toCompany);
    const total = plan.page
        ? ((await db.select({ n: count() }).from(companies).where(plan.where))[0]?.n ?? 0)
        : rows.length;
    return { rows, total };
}

export async function getCompany(db: Db, id: number): Promise<CompanyRow> {
    const [row] = await db.select().from(companies).where(eq(companies.id, id));
    if (!row) throw notFound('Company');
    return row;
}

/** The engine quota in a body; a field left out keeps the stored value (or the default). */
export interface QuotaBody {
    max_concurrent_checks?: number;
    min_interval_seconds?: number;
}

const quotaColumns = (body: QuotaBody) => ({
    ...(body.max_concurrent_checks !== undefined ? { maxConcurrentChecks: body.max_concurrent_checks } : {}),
    ...(body.min_interval_seconds !== undefined ? { minIntervalSeconds: body.min_interval_seconds } : {}),
});

export interface CompanyBody extends QuotaBody {
    name: string;
    is_active: boolean;
    allowed_networks?: string[];
}

export async function createCompany(db: Db, body: CompanyBody): Promise<CompanyRow> {
    const [row] = await db
        .insert(companies)
        .values({
            name: body.name,
            isActive: body.is_active,
            allowedNetworks: body.allowed_networks ?? [],
            ...quotaColumns(body),
        })
        .returning();
    if (!row) throw new Error('insert returned nothing');
    return row;
}

/** An update without `allowed_networks` or a quota field keeps the stored value (older clients send only name and is_active). */
export async function updateCompany(db: Db, id: number, body: CompanyBody) {
    const [row] = await db
        .update(companies)
        .set({
            name: body.name,
            isActive: body.is_active,
            ...(body.allowed_networks ? { allowedNetworks: body.allowed_networks } : {}),
            ...quotaColumns(body),
            updatedAt: new Date(),
        })
        .where(eq(companies.id, id))
        .returning();
    if (!row) throw notFound('Company');
    return row;
}

/** Refuses (nothing deleted) while the company still owns users, configurations or channels. */
export async function deleteCompany(db: Db, id: number): Promise<CompanyRow> {
    const row = await getCompany(db, id);
    const [u] = await db.select({ n: count() }).from(users).where(eq(users.companyId, id));
    const [c] = await db.select({ n: count() }).from(configurations).where(eq(configurations.companyId, id));
    const [ch] = await db
        .select({ n: count() })
        .from(notificationChannels)
        .where(eq(notificationChannels.companyId, id));
    const owned = [
        [u?.n ?? 0, 'user'],
        [c?.n ?? 0, 'configuration'],
        [ch?.n ?? 0, 'notification channel'],
    ]
        .filter(([n]) => Number(n) > 0)
        .map(([n, what]) => `${n} ${what}${Number(n) === 1 ? '' : 's'}`);
    if (owned.length > 0) {
        throw conflict(`Company "${row.name}" still owns ${owned.join(' and ')}; delete or move them first.`);
    }
    await db.delete(companies).where(eq(companies.id, id));
    return row;
}
