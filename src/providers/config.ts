/** The browser's global configuration object, set by the server's `/config.js` before the app starts. */
export interface AppConfig {
    /** Base of every API call, e.g. `/api`. */
    apiUrl: string;
    /** WebSocket URL of the live log tail, e.g. `ws://host:8081/api/logs`. */
    socketUrl: string;
    /** Public chain directory the chain picker reads from. */
    chainDirectoryUrl: string;
}

export type ConfigKey = keyof AppConfig;

declare global {
    interface Window {
        __NODE_MONITOR_CONFIG__?: Partial<AppConfig>;
    }
}

/** Reads one key; a missing or empty value is a deployment error and fails fast with the spec's sentence (§8). */
export function getConfig<K extends ConfigKey>(name: K): AppConfig[K] {
    const value = typeof window === 'undefined' ? undefined : window.__NODE_MONITOR_CONFIG__?.[name];
    if (value === undefined || value === null || value === '') {
        throw new Error(`Key ${name} not found in configuration`);
    }
    return value;
}
