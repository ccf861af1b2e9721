import { BlockList, isIP } from 'node:net';

/**
 * Which IP addresses the egress client may connect to. Cloud metadata and link-local addresses are refused
 * always (they hand out instance credentials); loopback and private ranges only when the operator switches
 * private targets off, because validators usually sit on private networks.
 */

const ALWAYS_REFUSED = new BlockList();
ALWAYS_REFUSED.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local, AWS/Azure/GCP/OpenStack metadata
ALWAYS_REFUSED.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud metadata
ALWAYS_REFUSED.addSubnet('fe80::', 10, 'ipv6'); // IPv6 link-local
ALWAYS_REFUSED.addAddress('fd00:ec2::254', 'ipv6'); // AWS IMDS over IPv6

const PRIVATE = new BlockList();
for (const [net, bits] of [
    ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host
    ['10.0.0.0', 8],
    ['100.64.0.0', 10], // carrier-grade NAT
    ['127.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 4], // multicast
    ['240.0.0.0', 4], // reserved and broadcast
] as const) {
    PRIVATE.addSubnet(net, bits, 'ipv4');
}
PRIVATE.addAddress('::', 'ipv6');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6'); // unique local
PRIVATE.addSubnet('ff00::', 8, 'ipv6'); // multicast

/** Host names refused before any lookup (they resolve to metadata addresses inside clouds). */
const REFUSED_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

/**
 * An IPv6 address that embeds an IPv4 one (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64
 * `64:ff9b::a.b.c.d`) reaches that IPv4 address, so it is judged as the IPv4 address.
 */
function embeddedIpv4(ipv6: string): string | null {
    let canonical: string;
    try {
        canonical = new URL(`http://[${ipv6}]/`).hostname.slice(1, -1);
    } catch {
        return null;
    }
    const m = /^(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
    if (!m) return null;
    const hi = Number.parseInt(m[1] ?? '0', 16);
    const lo = Number.parseInt(m[2] ?? '0', 16);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Why an address is refused, or null when the client may connect to it. */
export function refusalReason(address: string, allowPrivate: boolean): string | null {
    const family = isIP(address);
    if (family === 0) return `${address} is not an IP address`;
    const v4 = family === 6 ? embeddedIpv4(address) : address;
    const [ip, type] = v4 ? [v4, 'ipv4' as const] : [address, 'ipv6' as const];
    if (ALWAYS_REFUSED.check(ip, type)) return `${address} is a cloud metadata or link-local address`;
    if (!allowPrivate && PRIVATE.check(ip, type)) {
        return `${address} is a loopback or private address and private targets are switched off`;
    }
    return null;
}

/** Why a host name is refused before resolving it, or null. */
export function refusedHostName(hostname: string): string | null {
    const name = hostname.toLowerCase().replace(/\.+$/, '');
    return REFUSED_NAMES.has(name) ? `${hostname} is a cloud metadata host` : null;
}
