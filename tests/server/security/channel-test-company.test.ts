import { type Receiver, startReceiver } from '../../support/fake-receivers';
import { createWorld, type World } from '../config-fixtures';
import { login, seedCompany, seedUser } from '../helpers';

/**
 * A super admin's channel test is sent for the company the form names (its allowed networks apply), and a refused
 * destination is told in one sentence.
 */
let w: World;
let receiver: Receiver;
let closed: number;

beforeAll(async () => {
    receiver = await startReceiver({ status: 200, body: 'ok' });
    w = await createWorld();
    // A company whose checks may not reach loopback, where the receiver listens.
    closed = await seedCompany(w.t.app, 'Closed', true, []);
});
afterAll(async () => {
    await w.t.close();
    await receiver.close();
});

let testers = 0;
/** Five tests a minute per user: a fresh super admin (or admin of `companyId`) for each. */
async function tester(companyId: number | null): Promise<string> {
    const username = `tester${++testers}`;
    await seedUser(w.t.app, { username, companyId, isAdmin: true, isSuperAdmin: companyId === null });
    return (await login(w.t.app, username)).access;
}
const hookTest = (token: string, company_id?: number) =>
    w.call('POST', '/api/notification-channels/test', token, {
        name: 'ops',
        type: 'webhook',
        configuration_object: { url: `${receiver.url}/hook`, secret: 'whsec-1' },
        ...(company_id === undefined ? {} : { company_id }),
    });

describe('POST /api/notification-channels/test for a super admin', () => {
    it("uses the company_id of the body: that company's allowed networks open the destination", async () => {
        const before = receiver.received.length;
        const res = await hookTest(await tester(null), w.acme);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({ message: 'Notification channel tested successfully!' });
        expect(receiver.received.length).toBe(before + 1);
    });

    it("and that company's refusal, in one clear sentence", async () => {
        const res = await hookTest(await tester(null), closed);
        expect(res.statusCode).toBe(400);
        const message: string = res.json().message;
        expect(message).toMatch(/^The webhook was not contacted: 127\.0\.0\.1 is a loopback, private or link-local/);
        expect(message).not.toMatch(/could not be reached|is refused:/);
    });

    it('refuses a company that does not exist, naming company_id', async () => {
        const res = await hookTest(await tester(null), 999_999);
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toEqual({ company_id: 'Company does not exist' });
    });

    it("a company admin keeps their own company's networks", async () => {
        const admin = await tester(closed);
        const named = await hookTest(admin, w.acme);
        expect(named.statusCode).toBe(400);
        expect(named.json().errors).toHaveProperty('company_id');
        const own = await hookTest(admin);
        expect(own.statusCode).toBe(400);
        expect(own.json().message).toMatch(/^The webhook was not contacted: /);
    });
});
