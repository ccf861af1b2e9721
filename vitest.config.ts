import { existsSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Tests that drive Debian packages (Chromium, prometheus-node-exporter) join the run where those are installed;
// CI installs them, and with CI set a missing binary fails the run instead of leaving the tests out.
const withChromium = Boolean(process.env.CI) || existsSync('/usr/bin/chromium');
const withNodeExporter = Boolean(process.env.CI) || existsSync('/usr/bin/prometheus-node-exporter');
// The cluster profile's tests run real web and worker processes on the machine's PostgreSQL (DATABASE_URL, else
// postgres://postgres@127.0.0.1:5432/test) and Redis (127.0.0.1:6379); CI starts both (.ci/run).
const withRedis = Boolean(process.env.CI) || existsSync('/usr/bin/redis-server');

const cluster = {
    test: {
        name: 'cluster',
        globals: true,
        include: ['tests/cluster/**/*.test.ts'],
        environment: 'node',
        testTimeout: 60_000,
        hookTimeout: 180_000,
        // Each file runs its own web and worker processes on the one Redis database (REDIS_DB) and flushes it: one
        // file at a time, so no file's workers take another's check jobs, and the 2 cores are not shared.
        maxWorkers: 1,
    },
};

const e2e = {
    test: {
        name: 'e2e',
        globals: true,
        include: ['tests/e2e/**/*.test.ts'],
        globalSetup: ['./tests/e2e/global-setup.ts'],
        environment: 'node',
        testTimeout: 120_000,
        hookTimeout: 180_000,
        // Each file starts its own console on a free port and a fresh DATA_DIR, its own simulator and Chromium, so
        // files may overlap; they mostly wait on the engine's timers, so two at a time halve the time on 2 cores.
        // In a plain `vitest run` they follow the ui and server files, as a group of their own (its worker count
        // differs); CI runs this project in a process of its own beside them (.ci/run).
        maxWorkers: 2,
        sequence: { groupOrder: 1 },
    },
};

// One runner, three projects: the SPA under jsdom, the server under node, the browser tests under node driving Chromium.
export default defineConfig({
    plugins: [react()],
    test: {
        globals: true,
        // Most test time is waiting (simulated chains, timers, the browser), so more workers than the 2 cores of CI
        // finish sooner; the default of cores − 1 ran every file one after the other.
        maxWorkers: 3,
        projects: [
            {
                extends: true,
                test: {
                    name: 'ui',
                    include: ['tests/ui/**/*.test.{ts,tsx}'],
                    environment: 'jsdom',
                    setupFiles: ['./tests/ui/setup.ts'],
                },
            },
            {
                test: {
                    name: 'server',
                    globals: true,
                    include: ['tests/server/**/*.test.ts', 'tests/tools/**/*.test.ts'],
                    globalSetup: ['./tests/server/global-setup.ts'],
                    // *.redis.test.ts run apps of the cluster profile in this process, on PostgreSQL and Redis.
                    exclude: [
                        ...(withNodeExporter ? [] : ['tests/server/**/*.host.test.ts']),
                        ...(withRedis ? [] : ['tests/server/**/*.redis.test.ts']),
                    ],
                    environment: 'node',
                    testTimeout: 30_000,
                    hookTimeout: 60_000,
                },
            },
            ...(withChromium ? [e2e] : []),
            ...(withRedis ? [cluster] : []),
        ],
    },
});
