import { BlockList, isIP } from 'node:net';

/**
 * Which IP addresses the egress client may connect to. Cloud metadata endpoints are refused always (they hand
 * out instance credentials). Loopback, private and link-local addresses are refused unless the company the
 * request is made for has the range in its `allowed_networks` (validators usually sit on private networks, but
 * one tenant must not read the operator's), or the operator allows every private target (`ALLOW_PRIVATE_TARGETS`).
 */

/** Who a request is made for: the private ranges (CIDR strings) that company may reach. */
export interface EgressPolicy {
    allowedNetworks: readonly string[];
}

const ALWAYS_REFUSED = new BlockList();
for (const ip of [
    '169.254.169.254', // AWS, Azure, GCP, OpenStack, Oracle metadata
    '169.254.170.2', // AWS ECS task credentials
    '169.254.170.23', // AWS EKS pod identity
    '169.254.169.123', // AWS time sync, same host as the metadata service
    '100.100.100.200', // Alibaba Cloud metadata
    '168.63.129.16', // Azure platform endpoint (WireServer: instance configuration and extensions)
]) {
    ALWAYS_REFUSED.addAddress(ip, 'ipv4');
}
ALWAYS_REFUSED.addAddress('fd00:ec2::254', 'ipv6'); // AWS IMDS over IPv6
ALWAYS_REFUSED.addAddress('fd00:ec2::23', 'ipv6'); // AWS EKS pod identity over IPv6

const PRIVATE = new BlockList();
for (const [net, bits] of [
    ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host
    ['10.0.0.0', 8],
    ['100.64.0.0', 10], // carrier-grade NAT (and Tailscale)
    ['127.0.0.0', 8],
    ['169.254.0.0', 16], // link-local
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
PRIVATE.addSubnet('fe80::', 10, 'ipv6'); // link-local
PRIVATE.addSubnet('ff00::', 8, 'ipv6'); // multicast

/** Link-local: next to the metadata services, so only a company's explicit range opens it, not the global switch. */
const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');

/** Host names refused before any lookup (they resolve to metadata addresses inside clouds). */
const REFUSED_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data']);

/** The sentence every private-address refusal ends with, so whoever reads it knows how to get the range allowed. */
export const HOW_TO_ALLOW =
    "ask a super admin to add its range to the company's allowed networks (Companies → the company → Allowed networks)";

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

/** IPv6 space whose addresses reach IPv4 ones (mapped, compatible, NAT64): judged as IPv4, never opened as IPv6. */
const EMBEDDING_IPV4: [string, number][] = [
    ['::ffff:0:0', 96],
    ['::', 96],
    ['64:ff9b::', 96],
];
const EMBEDDING = new BlockList();
for (const [net, bits] of EMBEDDING_IPV4) EMBEDDING.addSubnet(net, bits, 'ipv6');

/** Whether an IPv6 range shares addresses with the IPv4-embedding space (`::/0` covers all of it). */
function coversEmbeddedIpv4(address: string, prefix: number): boolean {
    if (EMBEDDING.check(address, 'ipv6')) return !(address === '::1' && prefix === 128);
    const range = new BlockList();
    range.addSubnet(address, prefix, 'ipv6');
    return EMBEDDING_IPV4.some(([net]) => range.check(net, 'ipv6'));
}

/**
 * `10.0.0.0/8` → its parts, or a sentence saying what is wrong with it. An IPv6 range over IPv4-mapped space is
 * refused: an IPv4 address is checked against it as `::ffff:a.b.c.d`, so `::/0` would open all of IPv4 and loopback.
 */
export function parseCidr(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | string {
    const m = /^([^/\s]+)\/(\d{1,3})$/.exec(text.trim());
    if (!m) return `${text} is not a CIDR range such as 10.0.0.0/8 or fd00::/8`;
    const address = (m[1] ?? '').replace(/^\[|\]$/g, '');
    const family = isIP(address);
    if (family === 0) return `${text} does not start with an IP address`;
    const prefix = Number(m[2]);
    const max = family === 4 ? 32 : 128;
    if (prefix > max) return `${text} has a prefix longer than /${max}`;
    if (family === 6 && coversEmbeddedIpv4(address, prefix)) {
        return `${text} covers IPv4-mapped addresses; list IPv4 ranges as IPv4 (such as 10.0.0.0/8) and IPv6 ranges outside ::/96, ::ffff:0:0/96 and 64:ff9b::/96`;
    }
    return { address, prefix, family: family === 4 ? 'ipv4' : 'ipv6' };
}

const compiled = new Map<string, BlockList>();

/** The allowlist as a BlockList, compiled once per distinct list (a handful of companies, a handful of ranges). */
export function allowedNetworks(policy: EgressPolicy | undefined): BlockList | null {
    if (!policy || policy.allowedNetworks.length === 0) return null;
    const key = policy.allowedNetworks.join(',');
    let list = compiled.get(key);
    if (!list) {
        list = new BlockList();
        for (const cidr of policy.allowedNetworks) {
            const p = parseCidr(cidr);
            // Lists are validated on save; an invalid entry read back from an old row allows nothing.
            if (typeof p !== 'string') list.addSubnet(p.address, p.prefix, p.family);
        }
        if (compiled.size > 1000) compiled.clear();
        compiled.set(key, list);
    }
    return list;
}

/**
 * Why an address is refused, or null when the client may connect to it. `allowPrivate` is the operator's global
 * switch; `allowed` the company's ranges, which open loopback, private and link-local addresses but never metadata.
 */
export function refusalReason(address: string, allowPrivate: boolean, allowed: BlockList | null = null): string | null {
    const judged = judgedAs(address);
    if (!judged) return `${address} is not an IP address`;
    const [ip, type] = judged;
    if (ALWAYS_REFUSED.check(ip, type)) return `${address} is a cloud metadata address`;
    if (!PRIVATE.check(ip, type) || allowed?.check(ip, type)) return null;
    if (allowPrivate && !LINK_LOCAL.check(ip, type)) return null;
    return `${address} is a loopback, private or link-local address outside the company's allowed networks; ${HOW_TO_ALLOW}`;
}

/** The address as the BlockLists judge it: embedded IPv4 unwrapped, zone id dropped; null when not an IP. */
function judgedAs(address: string): [string, 'ipv4' | 'ipv6'] | null {
    const family = isIP(address);
    if (family === 0) return null;
    const v4 = family === 6 ? embeddedIpv4(address) : address;
    // A zone id (`fe80::1%eth0`) does not change which address is reached.
    return v4 ? [v4, 'ipv4'] : [address.replace(/%.*$/, ''), 'ipv6'];
}

/** True for a cloud metadata address, refused whatever any list says. */
export function isMetadataAddress(address: string): boolean {
    const judged = judgedAs(address);
    return judged !== null && ALWAYS_REFUSED.check(...judged);
}

/** Why a host name is refused before resolving it, or null. */
export function refusedHostName(hostname: string): string | null {
    const name = hostname.toLowerCase().replace(/\.+$/, '');
    return REFUSED_NAMES.has(name) ? `${hostname} is a cloud metadata host` : null;
}

/** Names every resolver maps to loopback (RFC 6761), judged as 127.0.0.1 before any lookup. */
export function isLocalhostName(hostname: string): boolean {
    const name = hostname.toLowerCase().replace(/\.+$/, '');
    return name === 'localhost' || name.endsWith('.localhost');
}
