import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

import { clearSession } from '../../src/providers/session';

// The first render of a lazy page transforms its modules; give findBy* room on a busy machine.
configure({ asyncUtilTimeout: 8000 });
// A test that walks a whole dialog flow (a dozen renders) took 20 s on CI's 2 cores beside the server and browser
// projects; its budget leaves room for that without hiding a test that never finishes.
vi.setConfig({ testTimeout: 45_000 });

// jsdom does not implement scrolling; react-admin scrolls to top on navigation.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

beforeEach(() => {
    localStorage.clear();
    // A tab's own memory of its session (why it ended) starts empty as in a new tab.
    sessionStorage.clear();
    clearSession();
    window.__NODE_MONITOR_CONFIG__ = {
        apiUrl: '/api',
        socketUrl: 'ws://localhost:8081/api/logs',
        chainDirectoryUrl: 'https://chains.cosmos.directory',
    };
});

afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
});
