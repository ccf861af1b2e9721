import { parentPort, workerData } from 'node:worker_threads';
import { createHttpClient } from '../clients/http';
import { errorText } from './texts';
import { type FromReadThread, type ReadAnswer, readHere, type ToReadThread } from './readers';

/** The read thread's side of `ReadThread` (readers.ts): reads on request, answers with the value or the error text. */
const port = parentPort;
if (!port) throw new Error('read-thread.ts runs as a worker thread of the engine');
const read = readHere(createHttpClient({ allowPrivate: (workerData as { allowPrivate: boolean }).allowPrivate }));
const running = new Map<number, AbortController>();
const answer = (msg: ReadAnswer) => {
    try {
        port.postMessage(msg);
    } catch (err) {
        // A value that cannot be copied is a bug of its check; the monitor shows it instead of waiting for its timeout.
        port.postMessage({
            id: msg.id,
            ok: false,
            error: `The check's reading could not be passed on: ${errorText(err)}`,
        });
    }
};

port.on('message', (msg: ToReadThread) => {
    if ('ping' in msg) {
        port.postMessage({ pong: true } satisfies FromReadThread);
        return;
    }
    if ('cancel' in msg) {
        running.get(msg.cancel)?.abort(new Error(msg.reason));
        // The other side stops waiting after a grace; a read that ignores its signal is not kept here either.
        running.delete(msg.cancel);
        return;
    }
    const abort = new AbortController();
    running.set(msg.id, abort);
    read(msg.req, abort.signal)
        .then(
            (value) => answer({ id: msg.id, ok: true, value }),
            (err: unknown) => answer({ id: msg.id, ok: false, error: errorText(err) })
        )
        .finally(() => running.delete(msg.id));
});
port.postMessage({ ready: true } satisfies FromReadThread);
