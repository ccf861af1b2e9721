import { randomBytes, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import { z } from 'zod';
import type { StatusPage } from '../../common/status-pages';
import type { Actor } from '../auth/actor';
import { decryptSecret, encryptSecret, maskSecret } from '../auth/secrets';
import type { Db } from '../db/client';
import { configurations, monitors, type StatusPageRow, statusPageMonitors, statusPages } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { inScope, type Scope, targetCompany } from '../repositories/scope';
import { readOnlyFields } from '../validation/schemas';
import { fieldErrors } from '../validation/schemas';

const TITLE_MAX = 120;
const DESCRIPTION_MAX = 2000;
const NAME_MAX = 120;
const MONITORS_MAX = 200;

const text = (field: string, max: number) =>
    z
        .string({ error: `${field} must be a text` })
        .trim()
        .max(max, `${field} must be at most ${max} characters`)
        .refine((s) => !s.includes('\u0000'), `${field} must not contain NUL characters`);

/** POST and PUT /api/status-pages; what react-admin echoes back from a read is accepted and ignored. */
export const statusPageBody = z.strictObject({
    company_id: z.number({ error: 'company_id must be a number' }).int().positive().nullish(),
    slug: z
        .string({ error: 'slug is required' })
        .regex(/^[a-z0-9-]{3,40}$/, 'slug must be 3 to 40 lowercase letters, digits or dashes'),
    title: text('title', TITLE_MAX).pipe(z.string().min(1, 'title is required')),
    description: z.preprocess((v) => (v === '' ? null : v), text('description', DESCRIPTION_MAX).nullish()),
    is_public: z.boolean({ error: 'is_public must be true or false' }).optional().default(true),
    /** Absent or the mask keeps the stored key; a private page without one gets a generated key. */
    access_key: z.preprocess(
        (v) => (v === '' ? null : v),
        z
            .string({ error: 'access_key must be a text' })
            .min(16, 'access_key must be at least 16 characters')
            .max(200, 'access_key must be at most 200 characters')
            .regex(/^[\x21-\x7e]+$/, 'access_key must be printable characters without spaces')
            .or(z.string().startsWith('••••'))
            .nullish()
    ),
    monitor_ids: z
        .array(z.number({ error: 'monitor_ids must be monitor ids' }).int().positive(), {
            error: 'monitor_ids must be a list of monitor ids',
        })
        .max(MONITORS_MAX, `A page shows at most ${MONITORS_MAX} monitors`),
    /** Names shown instead of the monitors' own, by monitor id. */
    display_names: z
        .record(z.string(), text('display_names', NAME_MAX), { error: 'display_names must map monitor ids to names' })
        .optional()
        .default({}),
    url: z.unknown().optional(),
    ...readOnlyFields,
});
export type StatusPageBody = z.infer<typeof statusPageBody>;

export function parseStatusPage(input: unknown): StatusPageBody {
    const parsed = statusPageBody.safeParse(input);
    if (!parsed.success) throw badRequest(fieldErrors(parsed.error));
    const body = parsed.data;
    if (new Set(body.monitor_ids).size !== body.monitor_ids.length)
        throw badRequest({ monitor_ids: 'monitor_ids lists a monitor twice' });
    // A name left behind for a monitor taken off the page (as a form leaves it) is dropped, not refused.
    const listed = new Set(body.monitor_ids.map(String));
    const names = Object.entries(body.display_names).filter(([id, name]) => listed.has(id) && name !== '');
    return { ...body, display_names: Object.fromEntries(names) };
}

export interface PageWithMonitors {
    row: StatusPageRow;
    monitors: { monitorId: number; displayName: string | null }[];
}

/**
 * The wire shape; the access key is masked, except in the answer to the write that generated it, which is the only
 * time its owner can copy the private link.
 */
export function toStatusPage(key: Uint8Array, page: PageWithMonitors, revealKey = false): StatusPage {
    const { row } = page;
    const plainKey = row.accessKey ? decryptSecret(key, row.accessKey) : null;
    return {
        id: row.id,
        company_id: row.companyId,
        slug: row.slug,
        title: row.title,
        description: row.description,
        is_public: row.isPublic,
        access_key: plainKey === null ? null : revealKey ? plainKey : maskSecret(plainKey),
        monitor_ids: page.monitors.map((m) => m.monitorId),
        display_names: Object.fromEntries(
            page.monitors.filter((m) => m.displayName).map((m) => [String(m.monitorId), m.displayName as string])
        ),
        url: `/status/${row.slug}`,
        created_at: row.createdAt.toISOString(),
        updated_at: row.updatedAt.toISOString(),
    };
}

async function withMonitors(db: Db, rows: StatusPageRow[]): Promise<PageWithMonitors[]> {
    if (rows.length === 0) return [];
    const links = await db
        .select()
        .from(statusPageMonitors)
        .where(
            inArray(
                statusPageMonitors.pageId,
                rows.map((r) => r.id)
            )
        )
        .orderBy(asc(statusPageMonitors.position));
    return rows.map((row) => ({
        row,
        monitors: links
            .filter((l) => l.pageId === row.id)
            .map((l) => ({ monitorId: l.monitorId, displayName: l.displayName })),
    }));
}

export async function listStatusPages(db: Db, scope: Scope): Promise<PageWithMonitors[]> {
    const rows = await db
        .select()
        .from(statusPages)
        .where(inScope(statusPages.companyId, scope))
        .orderBy(asc(statusPages.id));
    return withMonitors(db, rows);
}

export async function findStatusPage(db: Db, scope: Scope, id: number): Promise<PageWithMonitors> {
    const [row] = await db
        .select()
        .from(statusPages)
        .where(and(eq(statusPages.id, id), inScope(statusPages.companyId, scope)));
    if (!row) throw notFound('Status page');
    const [page] = await withMonitors(db, [row]);
    return page as PageWithMonitors;
}

export async function findBySlug(db: Db, slug: string): Promise<PageWithMonitors | null> {
    const [row] = await db.select().from(statusPages).where(eq(statusPages.slug, slug));
    if (!row) return null;
    const [page] = await withMonitors(db, [row]);
    return page ?? null;
}

/** Every listed monitor must belong to the page's company; a monitor of another company reads as unknown. */
async function checkMonitors(db: Db, companyId: number, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    const found = await db
        .select({ id: monitors.id })
        .from(monitors)
        .innerJoin(configurations, eq(configurations.id, monitors.configurationId))
        .where(and(inArray(monitors.id, ids), eq(configurations.companyId, companyId)));
    const known = new Set(found.map((m) => m.id));
    const missing = ids.find((id) => !known.has(id));
    if (missing !== undefined) throw badRequest({ monitor_ids: `Monitor ${missing} does not exist in this company` });
}

async function checkSlug(db: Db, slug: string, exceptId?: number): Promise<void> {
    const [taken] = await db
        .select({ id: statusPages.id })
        .from(statusPages)
        .where(and(eq(statusPages.slug, slug), exceptId === undefined ? undefined : ne(statusPages.id, exceptId)));
    if (taken) throw badRequest({ slug: 'This slug is already taken' });
}

/** The sealed key to store: a new one as given, the stored one for the mask or nothing, a fresh one if none. */
function sealedKey(key: Uint8Array, body: StatusPageBody, stored: string | null): string | null {
    const given = body.access_key;
    if (given && !given.startsWith('••••')) return encryptSecret(key, given);
    if (given === null && body.is_public) return null;
    if (stored) return stored;
    return body.is_public ? null : encryptSecret(key, randomBytes(18).toString('base64url'));
}

async function writeMonitors(db: Db, pageId: number, body: StatusPageBody): Promise<void> {
    await db.delete(statusPageMonitors).where(eq(statusPageMonitors.pageId, pageId));
    if (body.monitor_ids.length === 0) return;
    await db.insert(statusPageMonitors).values(
        body.monitor_ids.map((monitorId, position) => ({
            pageId,
            monitorId,
            position,
            displayName: body.display_names[String(monitorId)] || null,
        }))
    );
}

export async function createStatusPage(
    tx: Db,
    key: Uint8Array,
    actor: Actor,
    body: StatusPageBody
): Promise<PageWithMonitors> {
    const companyId = await targetCompany(tx, actor, body.company_id);
    await checkSlug(tx, body.slug);
    await checkMonitors(tx, companyId, body.monitor_ids);
    const [row] = await tx
        .insert(statusPages)
        .values({
            companyId,
            slug: body.slug,
            title: body.title,
            description: body.description ?? null,
            isPublic: body.is_public,
            accessKey: sealedKey(key, body, null),
        })
        .returning();
    if (!row) throw new Error('The status page was not stored');
    await writeMonitors(tx, row.id, body);
    return findStatusPage(tx, null, row.id);
}

export async function updateStatusPage(
    tx: Db,
    key: Uint8Array,
    scope: Scope,
    id: number,
    body: StatusPageBody
): Promise<PageWithMonitors> {
    const { row } = await findStatusPage(tx, scope, id);
    if (body.company_id != null && body.company_id !== row.companyId)
        throw badRequest({ company_id: 'A status page cannot move to another company' });
    await checkSlug(tx, body.slug, id);
    await checkMonitors(tx, row.companyId, body.monitor_ids);
    await tx
        .update(statusPages)
        .set({
            slug: body.slug,
            title: body.title,
            description: body.description ?? null,
            isPublic: body.is_public,
            accessKey: sealedKey(key, body, row.accessKey),
            updatedAt: new Date(),
        })
        .where(eq(statusPages.id, id));
    await writeMonitors(tx, id, body);
    return findStatusPage(tx, null, id);
}

export async function deleteStatusPage(tx: Db, scope: Scope, id: number): Promise<PageWithMonitors> {
    const page = await findStatusPage(tx, scope, id);
    await tx.delete(statusPages).where(eq(statusPages.id, id));
    return page;
}

/** Whether a visitor's `?key=` opens a private page; compared in constant time over the plain keys. */
export function opensPage(key: Uint8Array, row: StatusPageRow, given: string | undefined): boolean {
    if (row.isPublic) return true;
    if (!given || !row.accessKey) return false;
    const stored = Buffer.from(decryptSecret(key, row.accessKey));
    const offered = Buffer.from(given);
    return stored.length === offered.length && timingSafeEqual(stored, offered);
}
