import { sql } from 'drizzle-orm';
import type { TestApp } from '../helpers';
import { vacuumBusyTables } from '../../../server/db/maintenance';
import { createTestApp } from '../helpers';

let t: TestApp;
beforeAll(async () => {
    t = await createTestApp();
});
afterAll(() => t.close());

describe('embedded database maintenance', () => {
    it('gives the planner statistics at start (PGlite has no autoanalyze)', async () => {
        if (t.app.ctx.dbKind !== 'pglite') {
            expect(t.app.ctx.dbKind).toBe('postgres');
            return;
        }
        let analysed = false;
        for (let i = 0; i < 50 && !analysed; i++) {
            const result = await t.app.ctx.db.execute(
                sql`select count(*)::int as n from pg_stat_user_tables where relname = 'monitors' and last_analyze is not null`
            );
            analysed = (result as unknown as { rows: { n: number }[] }).rows[0]?.n === 1;
            if (!analysed) await new Promise((r) => setTimeout(r, 100));
        }
        expect(analysed).toBe(true);
    });

    it('vacuums and analyses each busy table', async () => {
        if (t.app.ctx.dbKind !== 'pglite') {
            expect(t.app.ctx.dbKind).toBe('postgres');
            return;
        }
        await vacuumBusyTables(t.app.ctx.db);
        const result = await t.app.ctx.db.execute(
            sql`select relname from pg_stat_user_tables where last_vacuum is not null and relname in ('monitors', 'outbox', 'check_results', 'disk_history') order by relname`
        );
        expect((result as unknown as { rows: { relname: string }[] }).rows.map((r) => r.relname)).toEqual([
            'check_results',
            'disk_history',
            'monitors',
            'outbox',
        ]);
    });
});
