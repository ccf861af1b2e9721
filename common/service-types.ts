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
