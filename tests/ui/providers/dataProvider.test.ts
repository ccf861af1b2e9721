import { toBody } from '../../../src/providers/bodies';
import { dataProvider } from '../../../src/providers/dataProvider';
import { storeSession, stubApi } from '../fakeApi';

const companies = [
    { id: 1, name: 'Beta', is_active: true },
    { id: 2, name: 'alpha', is_active: false },
    { id: 3, name: 'Gamma', is_active: true },
];

const listParams = {
    pagination: { page: 1, perPage: 2 },
    sort: { field: 'name', order: 'ASC' as const },
    filter: {},
};

describe('dataProvider', () => {
    beforeEach(() => storeSession());

    it('reads {results: []} and takes the total from Content-Range', async () => {
        const { calls } = stubApi({
            'GET /api/companies': {
                body: { results: companies.slice(0, 2) },
                headers: { 'Content-Range': 'companies 0-1/3' },
            },
        });
        const result = await dataProvider.getList('companies', listParams);
        expect(result).toEqual({ data: companies.slice(0, 2), total: 3 });
        expect(calls[0].url).toContain('sort=["name","ASC"]');
        expect(calls[0].url).toContain('range=[0,1]');
        expect(calls[0].headers.get('Authorization')).toBe('Bearer access-1');
    });

    it('sorts, filters and pages {results} itself when there is no Content-Range', async () => {
        stubApi({ 'GET /api/users': { body: { results: companies } } });
        const result = await dataProvider.getList('users', listParams);
        expect(result.total).toBe(3);
        expect(result.data.map((c) => c.name)).toEqual(['alpha', 'Beta']);
    });

    it('reads bare arrays, filtering with q and sorting client-side', async () => {
        const configurations = [
            { id: 1, name: 'osmosis-main', chain: 'osmosis', is_enabled: true },
            { id: 2, name: 'hub', chain: 'cosmoshub', is_enabled: true },
            { id: 3, name: 'juno', chain: 'juno', is_enabled: false },
        ];
        const { calls } = stubApi({ 'GET /api/configurations': { body: configurations } });
        const result = await dataProvider.getList('configurations', {
            pagination: { page: 1, perPage: 10 },
            sort: { field: 'id', order: 'DESC' },
            filter: { q: 'OS' },
        });
        expect(calls[0].url).toBe('/api/configurations?filter={"q":"OS"}&range=[0,9]&sort=["id","DESC"]');
        expect(result.total).toBe(2);
        expect(result.data.map((c) => c.id)).toEqual([2, 1]);
    });

    it('gets one record, and many by keeping the asked ids', async () => {
        stubApi({
            'GET /api/companies/2': { body: companies[1] },
            'GET /api/companies': { body: { results: companies } },
        });
        await expect(dataProvider.getOne('companies', { id: 2 })).resolves.toEqual({ data: companies[1] });
        const many = await dataProvider.getMany('companies', { ids: [1, 3] });
        expect(many.data.map((c) => c.id)).toEqual([1, 3]);
    });

    it('creates and updates with only the resource body fields; raw_password only when filled in', async () => {
        const { calls } = stubApi({
            'POST /api/users': { status: 201, body: { id: 9, username: 'bob' } },
            'PUT /api/users/9': { body: { id: 9, username: 'bob2' } },
        });
        const user = {
            username: 'bob',
            is_active: true,
            is_admin: false,
            is_super_admin: false,
            company_id: 1,
            raw_password: 'pw',
        };
        await expect(dataProvider.create('users', { data: user })).resolves.toEqual({
            data: { id: 9, username: 'bob' },
        });
        expect(calls[0].body).toEqual(user);

        await dataProvider.update('users', {
            id: 9,
            data: { ...user, id: 9, raw_password: '', company: { id: 1, name: 'Acme' }, created_at: 'x' },
            previousData: { id: 9 },
        });
        expect(calls[1].method).toBe('PUT');
        const { raw_password: _omitted, ...withoutPassword } = user;
        expect(calls[1].body).toEqual(withoutPassword);
    });

    it('deletes and passes a 409 message through', async () => {
        stubApi({
            'DELETE /api/companies/1': {
                status: 409,
                body: { message: 'The company still owns users or configurations' },
            },
            'DELETE /api/companies/2': { status: 204 },
        });
        await expect(dataProvider.delete('companies', { id: 1 })).rejects.toMatchObject({
            status: 409,
            message: 'The company still owns users or configurations',
        });
        await expect(dataProvider.delete('companies', { id: 2, previousData: companies[1] })).resolves.toEqual({
            data: companies[1],
        });
    });

    it('takes the page the server answers with its Content-Range as it is', async () => {
        const { calls } = stubApi({
            'GET /api/servers': { body: [{ id: 9, name: 'b' }], headers: { 'Content-Range': 'servers 25-25/26' } },
        });
        const result = await dataProvider.getList('servers', {
            pagination: { page: 2, perPage: 25 },
            sort: { field: 'name', order: 'ASC' },
            filter: { configuration_id: 7 },
        });
        expect(result).toEqual({ data: [{ id: 9, name: 'b' }], total: 26 });
        expect(calls[0].url).toContain('range=[25,49]');
        expect(calls[0].url).toContain('filter={"configuration_id":7}');
    });

    it('lists the audit from /audit/latest, newest first, with the range and filter react-admin asks for', async () => {
        const { calls } = stubApi({
            'GET /api/audit/latest': { body: [{ id: 3 }], headers: { 'Content-Range': 'audit 10-10/11' } },
        });
        const page = await dataProvider.getList('audit', {
            pagination: { page: 2, perPage: 10 },
            sort: { field: 'id', order: 'DESC' },
            filter: { q: 'x', monitor_id: 4 },
        });
        expect(page).toEqual({ data: [{ id: 3 }], total: 11 });
        expect(calls[0].path).toBe('/api/audit/latest');
        expect(calls[0].url).toContain('range=[10,19]');
        expect(calls[0].url).toContain('sort=["id","DESC"]');
        expect(calls[0].url).toContain('filter={"q":"x","monitor_id":4}');
    });

    it('reads nested lists through getManyReference and custom methods', async () => {
        const servers = [{ id: 4, name: 'val-1', configuration_id: 7 }];
        stubApi({
            'GET /api/configurations/7/servers': { body: servers },
            'GET /api/services/3/test': { status: 502, body: { message: 'down' } },
            'GET /api/servers/4/metrics': { body: { usedDiskSpace: 1 } },
        });
        const result = await dataProvider.getManyReference('servers', {
            target: 'configuration_id',
            id: 7,
            pagination: { page: 1, perPage: 25 },
            sort: { field: 'id', order: 'ASC' },
            filter: {},
        });
        expect(result).toEqual({ data: servers, total: 1 });
        await expect(dataProvider.probeService(3)).resolves.toEqual({ status: 502, message: 'down' });
        await expect(dataProvider.getServerMetrics(4)).resolves.toEqual({ usedDiskSpace: 1 });
    });

    it('toBody keeps only known fields', () => {
        expect(toBody('companies', { id: 1, name: 'A', is_active: true, created_at: 'x' })).toEqual({
            name: 'A',
            is_active: true,
        });
    });
});
