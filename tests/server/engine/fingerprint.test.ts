import { eq } from 'drizzle-orm';
import { monitors } from '../../../server/db/schema';
import { targetsFingerprint } from '../../../server/engine/targets';
import type { TestApp } from '../helpers';
import { createTestApp, seedCompany } from '../helpers';
import { seedNode } from '../seed';

let t: TestApp;
beforeAll(async () => {
    t = await createTestApp();
});
afterAll(() => t.close());

describe('targetsFingerprint', () => {
    it('stays put while nothing changes and moves on an insert, an update and a delete', async () => {
        const company = await seedCompany(t.app, 'Acme');
        const a = await targetsFingerprint(t.app.ctx.db);
        expect(await targetsFingerprint(t.app.ctx.db)).toBe(a);
        const { monitorId } = await seedNode(t.app, {
            companyId: company,
            services: [],
            monitor: { type: 'urlCheck', settings: { address: 'http://127.0.0.1:9' } },
        });
        const b = await targetsFingerprint(t.app.ctx.db);
        expect(b).not.toBe(a);
        await t.app.ctx.db
            .update(monitors)
            .set({ isEnabled: false, updatedAt: new Date(Date.now() + 1000) })
            .where(eq(monitors.id, monitorId));
        const c = await targetsFingerprint(t.app.ctx.db);
        expect(c).not.toBe(b);
        await t.app.ctx.db.delete(monitors).where(eq(monitors.id, monitorId));
        expect(await targetsFingerprint(t.app.ctx.db)).not.toBe(c);
    });
});
