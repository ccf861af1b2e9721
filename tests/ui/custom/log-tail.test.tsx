import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { LEVEL_COLORS } from '../../../src/custom/log-tail/logLines';
import { inOneHour, logTicket, storeSession, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';

/** A WebSocket the test drives: `open()`, `receive(data)`, `fail()`, `serverClose()`. */
class FakeWebSocket {
    static readonly CONNECTING = 0;
    static readonly OPEN = 1;
    static readonly CLOSING = 2;
    static readonly CLOSED = 3;
    static instances: FakeWebSocket[] = [];

    readyState = FakeWebSocket.CONNECTING;
    onopen: ((event: Event) => void) | null = null;
    onmessage: ((event: MessageEvent) => void) | null = null;
    onerror: ((event: Event) => void) | null = null;
    onclose: ((event: CloseEvent) => void) | null = null;
    closedByClient = false;

    constructor(readonly url: string) {
        FakeWebSocket.instances.push(this);
    }

    close() {
        this.closedByClient = true;
        this.readyState = FakeWebSocket.CLOSED;
    }

    open() {
        act(() => {
            this.readyState = FakeWebSocket.OPEN;
            this.onopen?.(new Event('open'));
        });
    }

    async receive(data: unknown) {
        await act(async () => {
            this.onmessage?.(new MessageEvent('message', { data }));
            await new Promise((resolve) => setTimeout(resolve, 0));
        });
    }

    fail() {
        act(() => {
            this.onerror?.(new Event('error'));
            this.readyState = FakeWebSocket.CLOSED;
            this.onclose?.(new CloseEvent('close', { code: 1006 }));
        });
    }

    serverClose(code = 1001, reason = 'Server shutting down') {
        act(() => {
            this.readyState = FakeWebSocket.CLOSED;
            this.onclose?.(new CloseEvent('close', { code, reason }));
        });
    }
}

const line = (level: string, message: string, timestamp = '2024-05-01T10:15:30.000Z') =>
    JSON.stringify({ level, message, timestamp });
const lastSocket = () => {
    const socket = FakeWebSocket.instances.at(-1);
    if (!socket) throw new Error('no socket opened');
    return socket;
};
const logLines = () =>
    within(screen.getByRole('log'))
        .queryAllByText(/\[(DEBUG|INFO|WARN|ERROR)\]/)
        .map((strong) => strong.parentElement as HTMLElement);

async function openTail() {
    renderApp('/logger');
    await waitFor(() => expect(FakeWebSocket.instances.length).toBeGreaterThan(0));
    const socket = lastSocket();
    socket.open();
    expect(await screen.findByText('WebSocket connection established!')).toBeInTheDocument();
    return socket;
}

describe('log tail', () => {
    beforeEach(() => {
        storeSession();
        FakeWebSocket.instances = [];
        vi.stubGlobal('WebSocket', FakeWebSocket);
    });

    it('connects with a ticket bought with the access token (never the token in the URL), then shows lines with their time and level colour', async () => {
        stubApi({ 'GET /api/users/me': { body: superAdmin }, ...logTicket });
        const socket = await openTail();
        expect(socket.url).toBe('ws://localhost:8081/api/logs?ticket=ticket-for-access-1');
        expect(screen.getByRole('heading', { name: 'Tail log', level: 1 })).toBeInTheDocument();

        await socket.receive(line('debug', 'polling block 42'));
        await socket.receive(line('info', 'engine started'));
        await socket.receive(new Blob([line('warn', 'slow response from rpc')]));
        await socket.receive(JSON.stringify({ level: 'error', message: 'node down' }));
        await socket.receive('not json');

        expect(await screen.findByText('node down')).toBeInTheDocument();
        const [opened, debug, info, warn, error] = logLines();
        expect(opened).toHaveTextContent('WebSocket connection established!');
        expect(opened).toHaveAttribute('data-level', 'info');
        expect(debug).toHaveTextContent(new Date('2024-05-01T10:15:30.000Z').toLocaleTimeString());
        expect(debug).toHaveStyle({ color: LEVEL_COLORS.debug });
        expect(info).toHaveStyle({ color: LEVEL_COLORS.info });
        expect(warn).toHaveTextContent('slow response from rpc');
        expect(warn).toHaveStyle({ color: LEVEL_COLORS.warn });
        expect(error).toHaveStyle({ color: LEVEL_COLORS.error });
        expect(error).toHaveTextContent('Unknown time');
        expect(logLines()).toHaveLength(5);
        expect(LEVEL_COLORS).toEqual({ debug: '#616161', info: '#1565c0', warn: '#c2410c', error: '#c62828' });
    });

    it("filters on the message and 'Clear' empties the list", async () => {
        stubApi({ 'GET /api/users/me': { body: superAdmin }, ...logTicket });
        const user = userEvent.setup();
        const socket = await openTail();
        await socket.receive(line('info', 'Monitor Block height checked'));
        await socket.receive(line('warn', 'Telegram send retried'));
        expect(await screen.findByText('Telegram send retried')).toBeInTheDocument();

        await user.type(screen.getByLabelText('Filter messages'), 'block');
        expect(screen.getByText('Monitor Block height checked')).toBeInTheDocument();
        expect(screen.queryByText('Telegram send retried')).not.toBeInTheDocument();
        expect(screen.queryByText('WebSocket connection established!')).not.toBeInTheDocument();
        await user.clear(screen.getByLabelText('Filter messages'));
        expect(screen.getByText('Telegram send retried')).toBeInTheDocument();

        await user.click(screen.getByRole('button', { name: 'Clear' }));
        expect(logLines()).toHaveLength(0);
        await socket.receive(line('info', 'after clear'));
        expect(await screen.findByText('after clear')).toBeInTheDocument();
        expect(logLines()).toHaveLength(1);
    });

    it('adds an error line on error and reconnects with a fresh token, skipping the replayed lines', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            ...logTicket,
            'POST /api/refresh': {
                body: {
                    accessToken: { token: 'access-2', expiresAt: inOneHour() },
                    refreshToken: { token: 'refresh-2', expiresAt: inOneHour() },
                },
            },
        });
        const socket = await openTail();
        await socket.receive(line('info', 'first line', '2024-05-01T10:00:00.000Z'));
        // The access token expires while the socket is open; the server restarts.
        storeSession(new Date(Date.now() - 1000).toISOString(), inOneHour());
        socket.fail();
        expect(await screen.findByText('WebSocket connection error')).toBeInTheDocument();
        const errorLine = screen.getByText('WebSocket connection error').parentElement;
        expect(errorLine).toHaveAttribute('data-level', 'error');
        expect(errorLine).toHaveStyle({ color: LEVEL_COLORS.error });

        await waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2), { timeout: 3000 });
        const second = lastSocket();
        expect(second.url).toBe('ws://localhost:8081/api/logs?ticket=ticket-for-access-2');
        expect(calls.some((call) => call.method === 'POST' && call.path === '/api/refresh')).toBe(true);
        second.open();
        await waitFor(() => expect(screen.getAllByText('WebSocket connection established!')).toHaveLength(2));
        // The server replays its buffer: the line already shown is not shown twice.
        await second.receive(line('info', 'first line', '2024-05-01T10:00:00.000Z'));
        await second.receive(line('info', 'after restart', '2024-05-01T10:01:00.000Z'));
        expect(await screen.findByText('after restart')).toBeInTheDocument();
        expect(screen.getAllByText('first line')).toHaveLength(1);
    });

    it('reconnects after the server closes the socket, and closes it on leaving the page', async () => {
        stubApi({ 'GET /api/users/me': { body: superAdmin }, ...logTicket });
        const user = userEvent.setup();
        const socket = await openTail();
        socket.serverClose();
        expect(await screen.findByText('WebSocket connection closed, reconnecting...')).toBeInTheDocument();
        await waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2), { timeout: 3000 });
        const second = lastSocket();
        second.open();
        await waitFor(() => expect(screen.getAllByText('WebSocket connection established!')).toHaveLength(2));
        await user.click(screen.getByRole('menuitem', { name: 'Audit' }));
        await waitFor(() => expect(second.closedByClient).toBe(true));
    });
});
