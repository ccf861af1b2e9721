import type { TestApp } from './helpers';
import { auth, createTestApp, login, seedCompany, seedUser } from './helpers';
import { seedNode } from './seed';

let t: TestApp;

beforeAll(async () => {
    t = await createTestApp({ engineEnabled: true });
});
afterAll(() => t.close());

const fs = (mountpoint: string, usedPercent: number) => ({
    mountpoint,
    device: `/dev/${mountpoint.length}`,
    fstype: 'ext4',
    usedPercent,
    sizeBytes: 1000,
    availBytes: 1000 - usedPercent * 10,
});

describe('GET /api/servers/storage', () => {
    it("answers the fullest disk the disk monitors read, among the caller's servers only", async () => {
        const acme = await seedCompany(t.app, 'Acme');
        const globex = await seedCompany(t.app, 'Globex');
        await seedUser(t.app, { username: 'acme-user', companyId: acme });
        const node = (companyId: number) =>
            seedNode(t.app, {
                companyId,
                services: [],
                monitor: { type: 'urlCheck', settings: { address: 'http://127.0.0.1:9' } },
            });
        const a = await node(acme);
        const g = await node(globex);
        const disks = t.app.ctx.engine?.disks;
        if (!disks) throw new Error('engine not running');
        disks.record(a.serverId, { filesystems: [fs('/', 40), fs('/data', 72.5)] }, new Date());
        disks.record(g.serverId, { filesystems: [fs('/', 95)] }, new Date());

        const acmeView = await t.app.inject({
            url: '/api/servers/storage',
            headers: auth((await login(t.app, 'acme-user')).access),
        });
        expect(acmeView.json().fullest).toMatchObject({
            server: { id: a.serverId, name: 'validator-1' },
            mountpoint: '/data',
            usedDiskSpacePercentage: 72.5,
            usedDiskSpace: 725,
            totalDiskSpace: 1000,
        });
        const rootView = await t.app.inject({
            url: '/api/servers/storage',
            headers: auth((await login(t.app, 'admin', 'admin-password-1')).access),
        });
        expect(rootView.json().fullest).toMatchObject({ server: { id: g.serverId }, usedDiskSpacePercentage: 95 });
    });
});
