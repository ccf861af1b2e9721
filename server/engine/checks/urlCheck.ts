import { serviceProbeUrl } from '../../../common/service-types';
import type { Check } from '../check';
import { numberSetting, ok, stringSetting } from './common';

/**
 * urlCheck: GET `address`. The target is up when it answers 2xx or 3xx (check-semantics §2.1 recommends 2xx/3xx
 * as the default set, as Uptime Kuma and Gatus do): a 4xx means the URL no longer serves what it should (wrong
 * path, expired auth), a 5xx means the service is broken, and timeouts and network errors are failures too.
 * Credentials in the URL are sent as basic auth, so protected endpoints can be checked without a 401. A monitor
 * created with a rest service probes the gateway's node_info, as its root answers 501 on a healthy node.
 *
 * Consecutive failures are kept across Error, so a long outage stays red instead of alternating red and orange;
 * Warning while failures < allowed_attempts, Error from allowed_attempts on (0 → at once); one success recovers.
 */

export interface UrlMeasurement {
    url: string;
    status: number;
    elapsedMs: number;
}

export interface UrlMemory {
    failures: number;
}

const isUp = (status: number) => status >= 200 && status < 400;

export const urlCheckCheck: Check<UrlMeasurement, UrlMemory> = {
    // The spec gives urlCheck no interval setting.
    intervalSeconds: () => 60,
    // Nor an alert sleep setting: remind every 30 minutes.
    alertSleepMinutes: () => 30,

    async read(ctx) {
        const setting = stringSetting(ctx.monitor.settings, 'address');
        if (!setting) throw new Error('The monitor has no address to request');
        // A monitor created with a service checks that service the way its type is known to answer when healthy.
        const address = serviceProbeUrl(setting, ctx.monitor.serviceType);
        const started = Date.now();
        // Only the status matters: a large page is cut at the cap instead of failing the check.
        const res = await ctx.http.request(address, { signal: ctx.signal, truncateBody: true });
        return { url: res.url, status: res.status, elapsedMs: Date.now() - started };
    },

    evaluate(memory, reading, settings) {
        if (reading.ok && isUp(reading.value.status)) return { memory: { failures: 0 }, verdict: ok() };
        const reason = reading.ok ? `${reading.value.url} answered HTTP ${reading.value.status}` : reading.error;
        const failures = (memory?.failures ?? 0) + 1;
        const allowed = Math.max(0, numberSetting('urlCheck', settings, 'allowed_attempts'));
        const verdict =
            failures >= allowed
                ? ({
                      level: 'error',
                      message: `${reason} (${failures} failed attempts in a row; ${allowed} allowed)`,
                  } as const)
                : ({
                      level: 'warning',
                      message: `${reason} (failed attempt ${failures} of ${allowed} allowed)`,
                  } as const);
        return { memory: { failures }, verdict };
    },
};
