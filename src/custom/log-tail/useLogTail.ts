import { useCallback, useEffect, useRef, useState } from 'react';

import type { LogMessage } from '../../../common/entities';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { LOG_TOPIC, type LogEvent, type LogSocketStatus } from '../../providers/logSocket';
import { type LogLine, MAX_LINES } from './logLines';

export const CONNECTED_TEXT = 'WebSocket connection established!';
export const ERROR_TEXT = 'WebSocket connection error';
export const CLOSED_TEXT = 'WebSocket connection closed, reconnecting...';

/**
 * The live log lines through the dataProvider's realtime `logs` topic. Connection changes become lines too:
 * 'WebSocket connection established!' on open, one error line per outage (the provider keeps reconnecting).
 */
export function useLogTail() {
    const dataProvider = useNodeMonitorDataProvider();
    const [lines, setLines] = useState<LogLine[]>([]);
    const [status, setStatus] = useState<LogSocketStatus>('connecting');
    const nextId = useRef(0);
    const outage = useRef(false);

    const append = useCallback((line: LogMessage) => {
        const id = nextId.current++;
        setLines((current) => {
            const next = [...current, { ...line, id }];
            return next.length > MAX_LINES ? next.slice(next.length - MAX_LINES) : next;
        });
    }, []);

    useEffect(() => {
        const now = () => new Date().toISOString();
        const onEvent = (event: LogEvent) => {
            if (event.type === 'message') {
                append(event.payload);
                return;
            }
            const { status: next, message } = event.payload;
            setStatus(next);
            if (next === 'open') {
                outage.current = false;
                append({ level: 'info', message: CONNECTED_TEXT, timestamp: now() });
            } else if (next === 'error' && !outage.current) {
                outage.current = true;
                append({
                    level: 'error',
                    message: message ? `${ERROR_TEXT}: ${message}` : ERROR_TEXT,
                    timestamp: now(),
                });
            } else if (next === 'closed' && message === 'Not signed in') {
                append({ level: 'error', message: `${ERROR_TEXT}: ${message}`, timestamp: now() });
            } else if (next === 'closed' && !outage.current) {
                outage.current = true;
                append({ level: 'warn', message: CLOSED_TEXT, timestamp: now() });
            }
        };
        dataProvider.subscribe(LOG_TOPIC, onEvent).catch((error: unknown) => console.error(error));
        return () => {
            dataProvider.unsubscribe(LOG_TOPIC, onEvent).catch(() => {});
        };
    }, [dataProvider, append]);

    const clear = useCallback(() => setLines([]), []);
    return { lines, status, clear };
}
