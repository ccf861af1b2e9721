import { eq } from 'drizzle-orm';
import { incidents, monitors } from '../../server/db/schema';
import { HistoryBuffer, writeHistory } from '../../server/history/buffer';
import { toRecord } from '../../server/notify/record';
import { startReceiver, type Receiver } from '../support/fake-receivers';
import { fixture, type Loopback, startLoopback } from './check-support';
import { createWorld, type World } from './config-fixtures';
import { auth, login } from './helpers';
import { DocumentChecker } from './openapi-document';
import { registeredRoutes } from './route-table';

let w: World;
let doc: DocumentChecker;
/** A node_exporter, a service to probe and a webhook, all on loopback. */
let target: Receiver;
/** A CometBFT RPC answering /status and /net_info with real payloads. */
let rpc: Loopback;
const problems: string[] = [];

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One request, its answer checked against the document; `status` is what the scenario expects. */
async function call(method: Method, url: string, token: string | null, status: number, payload?: unknown) {
    const res = await w.t.app.inject({
        method,
        url,
        headers: token ? auth(token) : {},
        ...(payload === undefined ? {} : { payload: payload as object }),
    });
    if (res.statusCode !== status)
        problems.push(`${method} ${url}: expected ${status}, got ${res.statusCode} ${res.body}`);
    problems.push(...doc.check(method, url, res));
    return res;
}

const NODE_EXPORTER = [
    'node_filesystem_size_bytes{device="/dev/sda1",fstype="ext4",mountpoint="/"} 1000',
    'node_filesystem_avail_bytes{device="/dev/sda1",fstype="ext4",mountpoint="/"} 400',
    'node_memory_MemTotal_bytes 1000',
    'node_memory_MemAvailable_bytes 250',
    '',
].join('\n');

beforeAll(async () => {
    target = await startReceiver({ status: 200, body: NODE_EXPORTER });
    rpc = await startLoopback((req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
            fixture(
                req.url?.startsWith('/net_info')
                    ? 'tendermint-net_info-with-peers-cosmoshub-2.json'
                    : 'cometbft-0.38-status.json'
            )
        );
    });
    w = await createWorld({ answerCacheMs: 0, metricsToken: 'scrape-token' });
    doc = await DocumentChecker.load(w.t.app);
});
afterAll(async () => {
    await w?.t.close();
    await target?.close();
    await rpc?.close();
});

describe('OpenAPI document against real answers', () => {
    // About 180 requests, one after the other: a few seconds alone, more on a busy CI machine.
    it('every route answers as documented, successes and errors alike, and no answer loses a field', {
        timeout: 90_000,
    }, async () => {
        const { plain, other } = w;
        const root = w.root.access;
        const alice = w.admin.access;

        // Public and session routes.
        await call('GET', '/api/health', null, 200);
        await call('POST', '/api/login', null, 200, { username: 'bob', password: 'password-123' });
        await call('POST', '/api/login', null, 401, { username: 'bob', password: 'wrong-password' });
        await call('POST', '/api/login', null, 400, {});
        const session = await login(w.t.app, 'alice');
        await call('POST', '/api/refresh', session.refresh, 200);
        await call('POST', '/api/refresh', null, 401);
        await call('GET', '/api/users/me', alice, 200);
        await call('GET', '/api/users/me', null, 401);
        await call('GET', '/api/chains', alice, 200);
        await call('GET', '/api/chains?network=moon', alice, 400);

        // Companies and users: super admins only.
        await call('GET', '/api/companies', root, 200);
        await call('GET', '/api/companies', alice, 403);
        await call('GET', `/api/companies/${w.acme}`, root, 200);
        await call('GET', '/api/companies/999999', root, 404);
        await call('GET', '/api/companies/abc', root, 400);
        const co = (await call('POST', '/api/companies', root, 201, { name: 'Initech', is_active: true })).json().id;
        await call('POST', '/api/companies', root, 400, { name: '' });
        await call('PUT', `/api/companies/${co}`, root, 200, { name: 'Initech 2', is_active: true });
        await call('DELETE', `/api/companies/${w.acme}`, root, 409);
        await call('DELETE', `/api/companies/${co}`, root, 200);
        await call('GET', '/api/users', root, 200);
        const me = (await call('GET', '/api/users/me', alice, 200)).json().id;
        await call('GET', `/api/users/${me}`, root, 200);
        const newUser = { username: 'carol', is_active: true, company_id: w.acme, raw_password: 'password-123' };
        const carol = (await call('POST', '/api/users', root, 201, newUser)).json().id;
        await call('POST', '/api/users', root, 409, newUser);
        await call('PUT', `/api/users/${carol}`, root, 200, { ...newUser, raw_password: '' });
        await call('DELETE', `/api/users/${carol}`, root, 200);
        await call('GET', '/api/users/999999', root, 404);

        // Configurations, servers, services, monitors of Acme.
        const cfg = (await call('POST', '/api/configurations', alice, 201, { name: 'Hub', chain: 'cosmoshub' })).json()
            .id;
        await call('POST', '/api/configurations', plain.access, 403, { name: 'No', chain: 'cosmoshub' });
        await call('POST', '/api/configurations', alice, 400, { chain: 'cosmoshub' });
        await call('PUT', `/api/configurations/${cfg}`, alice, 200, { name: 'Hub', chain: 'cosmoshub' });
        await call('GET', `/api/configurations/${cfg}`, other.access, 404);
        const srvBody = { name: 'val-1', address: 'http://10.0.0.5', configuration_id: cfg };
        const srv = (await call('POST', '/api/servers', alice, 201, srvBody)).json().id;
        await call('PUT', `/api/servers/${srv}`, alice, 200, srvBody);
        await call('GET', '/api/servers/999999/metrics', alice, 404);
        const svcBody = { name: 'exporter', type: 'node_exporter', address: target.url, server_id: srv };
        const svc = (await call('POST', '/api/services', alice, 201, svcBody)).json().id;
        await call('PUT', `/api/services/${svc}`, alice, 200, svcBody);
        await call('GET', `/api/services/${svc}/dependents`, alice, 200);
        await call('GET', `/api/services/${svc}/test`, alice, 200);
        await call('GET', `/api/services/999999/test`, alice, 404);
        await call('GET', `/api/servers/${srv}/metrics`, alice, 200);
        await call('GET', '/api/servers/999999/node', alice, 404);
        const rpcBody = { name: 'rpc', type: 'rpc', address: rpc.url, server_id: srv };
        await call('POST', '/api/services', alice, 201, rpcBody);
        await call('GET', `/api/servers/${srv}/node`, alice, 200);
        const monBody = {
            name: 'blocks',
            configuration_id: cfg,
            server_id: srv,
            type: 'blockCheck',
            configuration_object: '{}',
        };
        const mon = (await call('POST', '/api/monitors', alice, 201, monBody)).json().id;
        await call('POST', '/api/monitors', alice, 400, { ...monBody, type: 'nope' });
        await call('PUT', `/api/monitors/${mon}`, alice, 200, monBody);
        await call('GET', `/api/monitors/${mon}`, alice, 200);
        // One failing and one warning monitor, as the engine writes them, so the dashboard lists carry rows.
        await w.t.app.ctx.db
            .update(monitors)
            .set({ status: false, lastError: 'no new block for 5 min', lastCheck: new Date() })
            .where(eq(monitors.id, mon));
        await call('GET', '/api/monitors/failed', alice, 200);
        await call('GET', '/api/monitors/warnings', alice, 200);
        await call('GET', '/api/monitors/location-results', alice, 200);
        for (const path of ['', `/${cfg}`, `/${cfg}/servers`, `/${cfg}/monitors`, `/${cfg}/validator`]) {
            await call('GET', `/api/configurations${path}`, alice, 200);
        }
        for (const path of ['', '/storage', `/${srv}`, `/${srv}/monitors`, `/${srv}/services`]) {
            await call('GET', `/api/servers${path}`, alice, 200);
        }

        // History: a paged list, then checks and disk readings written through the engine's own flush path.
        await call('GET', '/api/monitors?range=[0,9]&sort=["name","ASC"]', alice, 200);
        await call('GET', '/api/monitors?range=x', alice, 400);
        const diskMon = (
            await call('POST', '/api/monitors', alice, 201, { ...monBody, name: 'disk', type: 'nodeExporterDiskSpace' })
        ).json().id;
        const history = new HistoryBuffer();
        for (let i = 0; i < 30; i++) {
            const t = Date.now() - (30 - i) * 60_000;
            const level = i >= 10 && i < 15 ? 'error' : 'ok';
            history.record({ monitorId: mon, t, level, latencyMs: 100 + i, value: 1000 + i, message: null });
            history.record(
                { monitorId: diskMon, t, level: 'ok', latencyMs: 5, value: null, message: null },
                { serverId: srv, t, filesystems: [{ mountpoint: '/', usedPercent: 40 + i / 10 }] }
            );
        }
        await writeHistory(w.t.app.ctx.db, history.take(true));
        const hour = `from=${new Date(Date.now() - 3600_000).toISOString()}`;
        await call('GET', `/api/monitors/${mon}/history`, alice, 200);
        await call('GET', `/api/monitors/${mon}/history?${hour}&step=5m`, plain.access, 200);
        await call('GET', `/api/monitors/${mon}/history?from=yesterday`, alice, 400);
        await call('GET', `/api/monitors/${mon}/history?step=1s`, alice, 400);
        await call('GET', `/api/monitors/${mon}/history`, other.access, 404);
        await call('GET', `/api/monitors/${mon}/history.csv?${hour}`, alice, 200);
        await call('GET', `/api/monitors/${mon}/history.csv?step=x`, alice, 400);
        await call('GET', `/api/monitors/${mon}/history.csv`, other.access, 404);
        await call('GET', `/api/monitors/${mon}/checks?limit=20`, alice, 200);
        await call('GET', `/api/monitors/${mon}/checks?limit=0`, alice, 400);
        await call('GET', `/api/monitors/${mon}/checks`, other.access, 404);
        await call('GET', `/api/servers/${srv}/disk-history?${hour}`, alice, 200);
        await call('GET', `/api/servers/${srv}/disk-history?to=x`, alice, 400);
        await call('GET', `/api/servers/${srv}/disk-history`, other.access, 404);
        await call('GET', '/api/uptime', alice, 200);
        await call('GET', `/api/uptime?configuration_id=${cfg}`, plain.access, 200);
        await call('GET', '/api/uptime?configuration_id=x', alice, 400);
        await call('GET', `/api/uptime?configuration_id=${cfg}`, other.access, 404);
        await call('DELETE', `/api/monitors/${diskMon}`, alice, 200);

        // Notification channels and their links.
        const chBody = {
            name: 'Hook',
            type: 'webhook',
            configuration_object: { url: `${target.url}/hook`, secret: 's3cret' },
            is_enabled: true,
        };
        const ch = (await call('POST', '/api/notification-channels', alice, 201, chBody)).json().id;
        await call('POST', '/api/notification-channels', alice, 400, { ...chBody, configuration_object: null });
        await call('PUT', `/api/notification-channels/${ch}`, alice, 200, chBody);
        await call('GET', '/api/notification-channels', alice, 200);
        await call('GET', `/api/notification-channels/${ch}`, alice, 200);
        await call('POST', '/api/notification-channels/test', alice, 200, { ...chBody, id: ch });
        await call('POST', '/api/notification-channels/test', plain.access, 403, chBody);
        const links = `/api/configurations/${cfg}/notification-channels`;
        const link = (await call('POST', links, alice, 201, { notification_channel_id: ch })).json().id;
        await call('POST', links, alice, 409, { notification_channel_id: ch });
        await call('GET', links, alice, 200);
        await call('PUT', `${links}/${link}`, alice, 200, { min_severity: 'warning' });
        await call('DELETE', `${links}/${link}`, alice, 200);

        // Audit, log ticket, configuration as code, API tokens, Prometheus.
        await call('GET', '/api/audit/latest', alice, 200);
        await call('GET', '/api/audit/latest?filter={"monitor_id":"x"}', alice, 400);
        await call('POST', '/api/logs/ticket', root, 200);
        await call('POST', '/api/logs/ticket', alice, 403);
        const exported = (await call('GET', '/api/export?format=json', alice, 200)).json();
        await call('GET', '/api/export', alice, 200);
        await call('POST', '/api/import?dry_run=true', alice, 200, exported);
        await call('POST', '/api/import?dry_run=true', alice, 400, { version: 2 });
        const tok = (await call('POST', '/api/tokens', alice, 201, { name: 'ci', scope: 'read' })).json();
        await call('GET', '/api/tokens', alice, 200);
        await call('GET', '/api/tokens', tok.token, 403);
        await call('DELETE', `/api/tokens/${tok.id}`, alice, 200);
        await call('DELETE', `/api/tokens/${tok.id}`, alice, 404);
        await call('GET', '/metrics', 'scrape-token', 200);
        await call('GET', '/metrics', 'wrong', 401);

        // Silences and maintenance windows.
        const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
        const silenceBody = { monitor_id: mon, ends_at: inHours(1), reason: 'Rebuilding the node' };
        const sil = (await call('POST', '/api/silences', alice, 201, silenceBody)).json().id;
        await call('POST', '/api/silences', alice, 400, { ...silenceBody, server_id: srv });
        await call('POST', '/api/silences', plain.access, 403, silenceBody);
        await call('POST', '/api/silences', other.access, 404, silenceBody);
        await call('GET', '/api/silences', alice, 200);
        // A silenced monitor carries its marker fields in every monitor answer.
        await call('GET', `/api/monitors/${mon}`, alice, 200);
        await call('GET', `/api/configurations/${cfg}/monitors`, alice, 200);
        await call('GET', '/api/monitors/failed', alice, 200);
        await call('GET', '/api/silences?range=[0,0]', alice, 200);
        await call('GET', '/api/silences?range=x', alice, 400);
        await call('DELETE', `/api/silences/${sil}`, alice, 200);
        await call('DELETE', '/api/silences/999999', alice, 404);
        const winBody = { server_id: srv, starts_at: inHours(24), ends_at: inHours(26), reason: 'Upgrade' };
        const win = (await call('POST', '/api/maintenance-windows', alice, 201, winBody)).json().id;
        await call('POST', '/api/maintenance-windows', alice, 400, { ...winBody, ends_at: inHours(23) });
        await call('PUT', `/api/maintenance-windows/${win}`, alice, 200, { ...winBody, repeat_weekly: true });
        await call('PUT', `/api/maintenance-windows/${win}`, other.access, 404, winBody);
        await call('GET', '/api/maintenance-windows', alice, 200);
        await call('DELETE', `/api/maintenance-windows/${win}`, alice, 200);
        await call('DELETE', `/api/maintenance-windows/${win}`, plain.access, 403);
        const onNow = { ...winBody, starts_at: inHours(-1), ends_at: inHours(1), mutes: 'all' };
        const ongoing = (await call('POST', '/api/maintenance-windows', alice, 201, onNow)).json().id;
        await call('POST', `/api/maintenance-windows/${ongoing}/end`, alice, 200);
        await call('POST', `/api/maintenance-windows/${ongoing}/end`, alice, 409);

        // Incidents: one open row, as the engine writes it, then acknowledged and annotated.
        const incidentId = '11111111-0000-4000-8000-000000000001';
        const opened = Date.now() - 600_000;
        const subject = {
            id: mon,
            name: 'blocks',
            type: 'blockCheck',
            configuration: { id: cfg, name: 'Hub', chain: 'cosmoshub' },
            server: { id: srv, name: 'val-1' },
        };
        const record = toRecord(subject, { kind: 'alert', incidentId, since: opened, message: 'No new block' }, opened);
        await w.t.app.ctx.db.insert(incidents).values({
            id: incidentId,
            companyId: w.acme,
            kind: 'monitor',
            configurationId: cfg,
            configurationName: 'Hub',
            monitorId: mon,
            monitorName: 'blocks',
            serverId: srv,
            serverName: 'val-1',
            message: 'No new block',
            payload: JSON.stringify(record),
            openedAt: new Date(opened),
        });
        // Linked again, so the acknowledgement adds channel deliveries to the timeline.
        await call('POST', links, alice, 201, { notification_channel_id: ch });
        await call('GET', '/api/incidents?filter={"status":"open"}&range=[0,9]', alice, 200);
        await call('GET', '/api/incidents?filter={"status":"gone"}', alice, 400);
        await call('GET', '/api/incidents/stats', plain.access, 200);
        await call('GET', '/api/incidents/stats?filter={"monitor_id":"x"}', alice, 400);
        await call('GET', `/api/incidents/${incidentId}`, plain.access, 200);
        await call('GET', `/api/incidents/${incidentId}`, other.access, 404);
        await call('POST', `/api/incidents/${incidentId}/ack`, plain.access, 403, {});
        await call('POST', `/api/incidents/${incidentId}/ack`, alice, 400, { note: 42 });
        await call('POST', `/api/incidents/${incidentId}/ack`, alice, 200, { note: 'Restarting the node' });
        await call('POST', `/api/incidents/${incidentId}/ack`, alice, 409, {});
        await call('POST', `/api/incidents/${incidentId}/notes`, alice, 201, { note: 'Disk was full' });
        await call('POST', `/api/incidents/${incidentId}/notes`, alice, 400, {});
        await call('POST', `/api/incidents/${incidentId}/notes`, other.access, 404, { note: 'x' });
        const timeline = (await call('GET', `/api/incidents/${incidentId}`, alice, 200)).json().timeline;
        expect(timeline.map((e: { kind: string; channel_name?: string }) => [e.kind, e.channel_name])).toEqual([
            ['acknowledged', undefined],
            ['acknowledged', 'Hook'],
            ['note', undefined],
        ]);

        // Status pages, an incident's public updates, and what visitors read without a session.
        const pageBody = { slug: 'hub-status', title: 'Hub', monitor_ids: [mon] };
        const statusPage = (await call('POST', '/api/status-pages', alice, 201, pageBody)).json().id;
        await call('POST', '/api/status-pages', alice, 400, { ...pageBody, slug: 'X' });
        await call('POST', '/api/status-pages', plain.access, 403, pageBody);
        await call('GET', '/api/status-pages', plain.access, 200);
        await call('GET', `/api/status-pages/${statusPage}`, plain.access, 200);
        await call('GET', `/api/status-pages/${statusPage}`, other.access, 404);
        await call('GET', `/api/status-pages/${statusPage}/preview`, plain.access, 200);
        await call('PUT', `/api/status-pages/${statusPage}`, alice, 200, { ...pageBody, title: 'Hub validators' });
        await call('POST', `/api/incidents/${incidentId}/updates`, alice, 201, {
            status: 'identified',
            text: 'Restarting',
        });
        await call('POST', `/api/incidents/${incidentId}/updates`, alice, 400, { status: 'done', text: 'x' });
        await call('GET', `/api/incidents/${incidentId}/updates`, plain.access, 200);
        await call('GET', '/api/public/status/hub-status', null, 200);
        await call('GET', '/api/public/status/hub-status/badge.svg', null, 200);
        await call('GET', '/api/public/status/no-such-page', null, 404);
        await call('POST', '/api/public/status/hub-status/subscribe', null, 202, { webhook: `${target.url}/status` });
        await call('POST', '/api/public/status/hub-status/subscribe', null, 400, { email: 'x' });
        const subscribers = (await call('GET', `/api/status-pages/${statusPage}/subscribers`, alice, 200)).json();
        await call('GET', `/api/status-pages/${statusPage}/subscribers`, plain.access, 403);
        await call('DELETE', `/api/status-pages/${statusPage}/subscribers/${subscribers.results[0]?.id}`, alice, 204);
        await call('DELETE', `/api/status-pages/${statusPage}`, alice, 200);

        // Deletes last.
        await call('DELETE', `/api/notification-channels/${ch}`, alice, 200);
        await call('DELETE', `/api/monitors/${mon}`, alice, 200);
        await call('DELETE', `/api/services/${svc}`, alice, 200);
        await call('DELETE', `/api/servers/${srv}`, alice, 200);
        await call('DELETE', `/api/configurations/${cfg}`, alice, 200);
        await call('POST', '/api/logout', session.refresh, 204);

        expect(problems).toEqual([]);
        // The serializer names every field a handler returned and a schema left out.
        expect(w.t.logs.filter((l) => l.includes('left out fields') || l.includes('does not match'))).toEqual([]);

        // Every documented operation gave at least one real, successful answer above.
        const operations = Object.entries(doc.doc.paths).flatMap(([path, ops]) =>
            Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)
        );
        const succeeded = new Set(
            [...doc.checked].filter((c) => /\s2\d\d$/.test(c)).map((c) => c.replace(/\s\d+$/, ''))
        );
        expect(operations.filter((op) => !succeeded.has(op))).toEqual([]);
    });

    it('every registered route documents its answers', async () => {
        const undocumented = registeredRoutes(w.t.app)
            // The API and the Prometheus page; the UI's files (/config.js, the app) are no API.
            .filter((r) => r.url.startsWith('/api/') || r.url === '/metrics')
            .filter((r) => r.method !== 'HEAD' && !r.url.startsWith('/api/docs'))
            // The document itself, and the log socket (a WebSocket upgrade, not an answer).
            .filter((r) => !['/api/openapi.json', '/api/logs'].includes(r.url))
            .map((r) => ({ method: r.method.toLowerCase(), path: r.url.replace(/:(\w+)/g, '{$1}') }))
            .filter(({ method, path }) => {
                // Without a response schema, the document shows a bare `200: Default Response`, with no content.
                const ok = Object.entries(doc.doc.paths[path]?.[method]?.responses ?? {}).filter(([c]) => /^2/.test(c));
                return ok.length === 0 || ok.some(([code, r]) => code !== '204' && !r.content);
            })
            .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
        expect(undocumented).toEqual([]);
    });
});
