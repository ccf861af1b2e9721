import { type LogEvent, logRealtime, parseLogLine, reconnectDelay } from '../../../src/providers/logSocket';
import { anHourAgo, inOneHour, logTicket, storeSession, stubApi } from '../fakeApi';

class QuietSocket {
    static readonly CLOSED = 3;
    static readonly CLOSING = 2;
    static instances: QuietSocket[] = [];
    readyState = 0;
    onopen = null;
    onmessage = null;
    onerror = null;
    onclose = null;
    constructor(readonly url: string) {
        QuietSocket.instances.push(this);
    }
    close() {
        this.readyState = 3;
    }
}

describe('logSocket', () => {
    it.each([
        [
            'a full line',
            '{"level":"warn","message":"m","timestamp":"t"}',
            { level: 'warn', message: 'm', timestamp: 't' },
        ],
        ['an unknown level as info', '{"level":"trace","message":"m"}', { level: 'info', message: 'm', timestamp: '' }],
        ['no message', '{"level":"info"}', null],
        ['not JSON', 'hello', null],
        ['a JSON scalar', '42', null],
    ])('parses %s', (_, text, expected) => {
        expect(parseLogLine(text)).toEqual(expected);
    });

    it.each([
        [0, 500],
        [1, 1000],
        [3, 4000],
        [4, 5000],
        [20, 5000],
    ])('waits before reconnect attempt %i: %i ms', (attempt, delay) => {
        expect(reconnectDelay(attempt)).toBe(delay);
    });

    it('keeps trying while the server cannot refresh an expired token', async () => {
        QuietSocket.instances = [];
        vi.stubGlobal('WebSocket', QuietSocket);
        storeSession(anHourAgo(), inOneHour());
        let refresh: 'network' | 'ok' = 'network';
        stubApi({
            ...logTicket,
            'POST /api/refresh': () =>
                refresh === 'network'
                    ? Promise.reject(new TypeError('Failed to fetch'))
                    : {
                          body: {
                              accessToken: { token: 'access-9', expiresAt: inOneHour() },
                              refreshToken: { token: 'refresh-9', expiresAt: inOneHour() },
                          },
                      },
        });
        const events: LogEvent[] = [];
        const callback = (event: LogEvent) => events.push(event);
        await logRealtime.subscribe('logs', callback);
        await vi.waitFor(() =>
            expect(events.some((e) => e.type === 'status' && e.payload.status === 'error')).toBe(true)
        );
        expect(QuietSocket.instances).toHaveLength(0);
        refresh = 'ok';
        await vi.waitFor(() => expect(QuietSocket.instances).toHaveLength(1), { timeout: 3000 });
        expect(QuietSocket.instances[0].url).toBe('ws://localhost:8081/api/logs?ticket=ticket-for-access-9');
        await logRealtime.unsubscribe('logs', callback);
        expect(QuietSocket.instances[0].readyState).toBe(3);
        await expect(logRealtime.subscribe('other', callback)).rejects.toThrow('Unknown realtime topic other');
    });
});

describe('logSocket tickets', () => {
    it('opens no socket while the ticket is refused, and reports the server message', async () => {
        QuietSocket.instances = [];
        vi.stubGlobal('WebSocket', QuietSocket);
        storeSession();
        let refuse = true;
        const { calls } = stubApi({
            'POST /api/logs/ticket': (request) =>
                refuse
                    ? { status: 403, body: { message: 'Only super admins can do this' } }
                    : (logTicket['POST /api/logs/ticket'] as (r: typeof request) => { body: unknown })(request),
        });
        const events: LogEvent[] = [];
        const callback = (event: LogEvent) => events.push(event);
        await logRealtime.subscribe('logs', callback);
        await vi.waitFor(() =>
            expect(events).toContainEqual({
                topic: 'logs',
                type: 'status',
                payload: { status: 'error', message: 'Only super admins can do this' },
            })
        );
        expect(QuietSocket.instances).toHaveLength(0);
        expect(calls[0]?.headers.get('Authorization')).toBe('Bearer access-1');
        refuse = false;
        await vi.waitFor(() => expect(QuietSocket.instances).toHaveLength(1), { timeout: 3000 });
        expect(QuietSocket.instances[0].url).toBe('ws://localhost:8081/api/logs?ticket=ticket-for-access-1');
        await logRealtime.unsubscribe('logs', callback);
    });
});
