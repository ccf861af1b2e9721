// Parses one import document off the main thread (yaml-off-thread.ts): a large YAML document takes seconds to
// parse, which on the main thread would hold up every other request.
import { parentPort, workerData } from 'node:worker_threads';
import { parse } from 'yaml';

try {
    parentPort.postMessage({ ok: true, value: parse(workerData.text, { maxAliasCount: 100 }) });
} catch (err) {
    parentPort.postMessage({ ok: false, message: String(err?.message ?? err).split('\n')[0] });
}
