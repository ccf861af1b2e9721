/** Service types a server can expose, with the default port and path the spec (§9) appends to the server address. */
export const SERVICE_TYPES = ['rpc', 'rest', 'prometheus', 'node_exporter'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

export const SERVICE_DEFAULT_SUFFIX: Record<ServiceType, string> = {
    rpc: ':26657',
    rest: ':1317',
    prometheus: ':26660/metrics',
    node_exporter: ':9100/metrics',
};

/** `http://10.0.0.5` + rpc → `http://10.0.0.5:26657`; any port or trailing slash already in the address is replaced. */
export function defaultServiceAddress(serverAddress: string, type: ServiceType): string {
    const suffix = SERVICE_DEFAULT_SUFFIX[type];
    try {
        const url = new URL(serverAddress);
        return `${url.protocol}//${url.hostname.includes(':') ? `[${url.hostname}]` : url.hostname}${suffix}`;
    } catch {
        return `${serverAddress.replace(/\/+$/, '')}${suffix}`;
    }
}

/**
 * Where a service's health is read. A Cosmos REST gateway answers its root with HTTP 501 ("Not Implemented") even
 * when healthy, so a rest service is probed at an endpoint every node serves; other types answer at their address.
 */
export const SERVICE_PROBE_PATH: Partial<Record<ServiceType, string>> = {
    rest: '/cosmos/base/tendermint/v1beta1/node_info',
};

/** `http://10.0.0.5:1317` (rest) → `http://10.0.0.5:1317/cosmos/base/tendermint/v1beta1/node_info`. */
export function serviceProbeUrl(address: string, type: ServiceType | null | undefined): string {
    const path = type ? SERVICE_PROBE_PATH[type] : undefined;
    if (!path) return address;
    try {
        const url = new URL(address);
        // Only a bare gateway address gets the path: an address the user pointed at an endpoint is used as it is.
        if (url.pathname !== '/' && url.pathname !== '') return address;
        url.pathname = path;
        return url.toString();
    } catch {
        return address;
    }
}
