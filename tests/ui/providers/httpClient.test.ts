import { HttpError } from 'react-admin';

import { httpClient, request } from '../../../src/providers/httpClient';
import { stubApi } from '../fakeApi';

describe('httpClient', () => {
    it('fabricates a 500 "The server is unresponsive" on a network failure', async () => {
        stubApi({ 'GET /api/servers': 'network' });
        const response = await request('/servers');
        expect(response.status).toBe(500);
        expect(response.json).toEqual({
            code: 500,
            message: 'The server is unresponsive',
            description: 'Failed to fetch',
        });
        await expect(httpClient('/servers')).rejects.toMatchObject({
            status: 500,
            message: 'The server is unresponsive',
        });
    });

    it('turns a non-JSON body into null json', async () => {
        stubApi({ 'GET /api/health': { status: 200, body: '<html>hi</html>' } });
        const response = await request('/health');
        expect(response.ok).toBe(true);
        expect(response.json).toBeNull();
    });

    it('raises HttpError with the server message and field errors for a 4xx', async () => {
        const body = { message: 'Invalid body', errors: { name: 'Name is taken' } };
        stubApi({ 'POST /api/companies': { status: 400, body } });
        const error = await httpClient('/companies', { method: 'POST', body: { name: 'x' } }).catch((e) => e);
        expect(error).toBeInstanceOf(HttpError);
        expect(error.message).toBe('Invalid body');
        expect(error.status).toBe(400);
        expect(error.body.errors).toEqual({ name: 'Name is taken' });
    });

    it('sends JSON, the bearer token and the query under the configured base', async () => {
        const { calls } = stubApi({ 'POST /api/things': { status: 201, body: { id: 1 } } });
        await httpClient('/things', { method: 'POST', body: { a: 1 }, token: 'tok', query: { x: '1' } });
        expect(calls[0].url).toBe('/api/things?x=1');
        expect(calls[0].headers.get('Authorization')).toBe('Bearer tok');
        expect(calls[0].headers.get('Content-Type')).toBe('application/json');
        expect(calls[0].body).toEqual({ a: 1 });
    });
});
