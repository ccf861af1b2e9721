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

    it('vacuums each busy table, and analyses them when asked', async () => {
        if (t.app.ctx.dbKind !== 'pglite') {
            expect(t.app.ctx.dbKind).toBe('postgres');
            return;
        }
        const busy = async (column: 'last_vacuum' | 'last_analyze') => {
            const result = await t.app.ctx.db.execute(
                sql`select relname, ${sql.identifier(column)} as at from pg_stat_user_tables where relname in ('monitors', 'outbox', 'check_results', 'disk_history') and ${sql.identifier(column)} is not null order by relname`
            );
            return (result as unknown as { rows: { relname: string; at: string }[] }).rows;
        };
        const analysedBefore = await busy('last_analyze');
        await vacuumBusyTables(t.app.ctx.db, { analyze: false });
        expect((await busy('last_vacuum')).map((r) => r.relname)).toEqual([
            'check_results',
            'disk_history',
            'monitors',
            'outbox',
        ]);
        expect(await busy('last_analyze')).toEqual(analysedBefore);
        await vacuumBusyTables(t.app.ctx.db, { analyze: true });
        const analysed = await busy('last_analyze');
        expect(analysed.map((r) => r.relname)).toEqual(['check_results', 'disk_history', 'monitors', 'outbox']);
        expect(analysed).not.toEqual(analysedBefore);
    });
});
