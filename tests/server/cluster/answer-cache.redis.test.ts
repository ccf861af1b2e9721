import { login, seedCompany, seedUser } from '../helpers';
import { type ClusterApps, clusterApps } from './apps';

/**
 * The answer cache in the cluster profile: a write made through one `web` process shows at once in the answers of
 * another, however long that one would keep an answer. Shares the login-locks file's Redis database (12) without
 * emptying it: only the count of writes is read here, and an emptied count only drops more answers.
 */
let c: ClusterApps;

const web = (i: number) => c.web(i);

beforeAll(async () => {
    c = await clusterApps(2, 12, { answerCacheMs: 60_000 }, true);
});
afterAll(() => c?.close());

it("shows a write made through one web process at once in another's answers", async () => {
    const companyId = await seedCompany(web(0), 'Acme');
    await seedUser(web(0), { username: 'admin-acme', companyId, isAdmin: true });
    const { access } = await login(web(0), 'admin-acme');
    const headers = { authorization: `Bearer ${access}` };
    const names = async (i: number) =>
        (await web(i).inject({ url: '/api/configurations', headers })).json().map((r: { name: string }) => r.name);
    // Built and kept by the second process.
    expect(await names(1)).toEqual([]);
    expect(await names(1)).toEqual([]);
    const made = await web(0).inject({
        method: 'POST',
        url: '/api/configurations',
        headers,
        payload: { name: 'Hub', chain: 'cosmoshub' },
    });
    expect(made.statusCode).toBe(201);
    expect(await names(1)).toEqual(['Hub']);
    expect(await names(0)).toEqual(['Hub']);
});
