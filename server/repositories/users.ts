import { count, eq, sql } from 'drizzle-orm';
import type { User } from '../../common/entities';
import { hashPassword } from '../auth/passwords';
import type { Db } from '../db/client';
import { companies, users } from '../db/schema';
import type { UserRow } from '../db/schema';
import { badRequest, conflict, notFound } from '../errors';
import { boolFilter, idFilter, type ListPlan, type ListSpec, paged, textFilter } from './list-query';

export interface UserBody {
    username: string;
    is_active: boolean;
    is_admin: boolean;
    is_super_admin: boolean;
    company_id: number | null;
    raw_password?: string;
}

type Joined = { user: UserRow; company: { id: number; name: string } | null };

export const toUser = ({ user, company }: Joined): User => ({
    id: user.id,
    username: user.username,
    is_active: user.isActive,
    is_admin: user.isAdmin,
    is_super_admin: user.isSuperAdmin,
    company: company ? { id: company.id, name: company.name } : null,
    company_id: user.companyId,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
});

function selectJoined(db: Db) {
    return db
        .select({ user: users, company: { id: companies.id, name: companies.name } })
        .from(users)
        .leftJoin(companies, eq(companies.id, users.companyId));
}

/** The list's react-admin parameters: q on the username, one company. */
export const userList: ListSpec = {
    resource: 'users',
    id: users.id,
    sort: {
        id: users.id,
        username: sql`lower(${users.username})`,
        is_active: users.isActive,
        created_at: users.createdAt,
        'company.name': sql`lower(${companies.name})`,
    },
    filter: {
        id: idFilter(users.id),
        q: textFilter(users.username),
        company_id: idFilter(users.companyId),
        is_active: boolFilter(users.isActive),
    },
};

/** One page (or, without `range`, all) of the users a list request names, and how many there are. */
export async function pageUsers(db: Db, plan: ListPlan) {
    const rows = (await paged(selectJoined(db).where(plan.where).$dynamic(), plan)).map(toUser);
    const total = plan.page
        ? ((await db.select({ n: count() }).from(users).where(plan.where))[0]?.n ?? 0)
        : rows.length;
    return { rows, total };
}

export async function getUser(db: Db, id: number): Promise<User> {
    const [row] = await selectJoined(db).where(eq(users.id, id));
    if (!row) throw notFound('User');
    return toUser(row);
}

async function checkCompany(db: Db, body: UserBody): Promise<void> {
    if (body.company_id === null) {
        if (!body.is_super_admin) throw badRequest({ company_id: 'Please select a company' });
        return;
    }
    const [c] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, body.company_id));
    if (!c) throw badRequest({ company_id: 'Company does not exist' });
}

async function checkUsernameFree(db: Db, username: string, exceptId?: number): Promise<void> {
    const [u] = await db.select({ id: users.id }).from(users).where(eq(users.username, username));
    if (u && u.id !== exceptId) throw conflict(`Username "${username}" is already taken`);
}

export async function createUser(db: Db, body: UserBody): Promise<User> {
    if (!body.raw_password) throw badRequest({ raw_password: 'Password is required for new users' });
    await checkCompany(db, body);
    await checkUsernameFree(db, body.username);
    const [row] = await db
        .insert(users)
        .values({
            username: body.username,
            passwordHash: await hashPassword(body.raw_password),
            isActive: body.is_active,
            isAdmin: body.is_admin,
            isSuperAdmin: body.is_super_admin,
            companyId: body.company_id,
        })
        .returning({ id: users.id });
    if (!row) throw new Error('insert returned nothing');
    return getUser(db, row.id);
}

/** Returns the updated user and whether its sessions must end (disabled, new password, role or company changed). */
export async function updateUser(db: Db, id: number, body: UserBody): Promise<{ user: User; endSessions: boolean }> {
    const [before] = await db.select().from(users).where(eq(users.id, id));
    if (!before) throw notFound('User');
    await checkCompany(db, body);
    await checkUsernameFree(db, body.username, id);
    const patch: Partial<UserRow> = {
        username: body.username,
        isActive: body.is_active,
        isAdmin: body.is_admin,
        isSuperAdmin: body.is_super_admin,
        companyId: body.company_id,
        updatedAt: new Date(),
    };
    if (body.raw_password) patch.passwordHash = await hashPassword(body.raw_password);
    await db.update(users).set(patch).where(eq(users.id, id));
    const endSessions =
        !body.is_active ||
        Boolean(body.raw_password) ||
        before.companyId !== body.company_id ||
        (before.isAdmin && !body.is_admin) ||
        (before.isSuperAdmin && !body.is_super_admin);
    return { user: await getUser(db, id), endSessions };
}

export async function deleteUser(db: Db, id: number): Promise<User> {
    const user = await getUser(db, id);
    await db.delete(users).where(eq(users.id, id));
    return user;
}
