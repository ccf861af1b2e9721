import { Worker } from 'node:worker_threads';

/** A document that takes longer than this to parse is refused rather than parsed on. */
const PARSE_TIMEOUT_MS = 20_000;

export class YamlError extends Error {}

/**
 * Parses YAML in a worker thread, so a large import document does not hold up other callers. Aliases come back
 * as shared references (the structured clone keeps them), unexpanded: beyondImportLimits measures the expansion.
 */
export function parseYamlOffThread(text: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
        const worker = new Worker(new URL('./yaml-thread.mjs', import.meta.url), { workerData: { text } });
        const timer = setTimeout(() => {
            void worker.terminate();
            reject(new YamlError(`parsing took longer than ${PARSE_TIMEOUT_MS / 1000} s`));
        }, PARSE_TIMEOUT_MS);
        worker.once('message', (m: { ok: true; value: unknown } | { ok: false; message: string }) => {
            clearTimeout(timer);
            void worker.terminate();
            if (m.ok) resolve(m.value);
            else reject(new YamlError(m.message));
        });
        worker.once('error', (err) => {
            clearTimeout(timer);
            reject(err);
        });
    });
}
