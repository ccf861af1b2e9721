// gRPC-gateway conventions shared by the REST modules: error bodies, address checks, pagination.
import { toBase64 } from '@cosmjs/encoding';
import type { SimValidator, ValidatorState } from './chain';
import { json, type SimResponse } from './http';
import { decodeBech32 } from './keys';
import type { SimNode } from './node';

/** gRPC status codes and the HTTP statuses grpc-gateway maps them to (protocols.md §2.1, §9.1). */
const HTTP_FOR_CODE: Record<number, number> = { 3: 400, 5: 404, 12: 501, 13: 500 };

export function grpcError(code: number, message: string, headers?: Record<string, string>): SimResponse {
    return json(HTTP_FOR_CODE[code] ?? 500, { code, message, details: [] }, headers);
}

export const notImplemented = () => grpcError(12, 'Not Implemented');

/** Context of one REST request: the node, and the height whose state it reads. */
export interface RestContext {
    node: SimNode;
    height: number;
    state(v: SimValidator): ValidatorState;
    query: URLSearchParams;
}

/** A malformed bech32 address is InvalidArgument, like the SDK's address decoding errors. */
export function checkBech32(addr: string, expectedPrefix: string): SimResponse | null {
    try {
        const { prefix } = decodeBech32(addr);
        if (prefix !== expectedPrefix) {
            return grpcError(3, `invalid Bech32 prefix; expected ${expectedPrefix}, got ${prefix}`);
        }
        return null;
    } catch (err) {
        return grpcError(3, `decoding bech32 failed: ${err instanceof Error ? err.message : String(err)}`);
    }
}

/** types/query/pagination.go: key or offset, default limit 100, total only when counting. */
export function paginate<T>(q: URLSearchParams, items: T[], field: string, render: (item: T) => unknown): SimResponse {
    const key = q.get('pagination.key');
    const offsetText = q.get('pagination.offset');
    if (key && offsetText) return grpcError(3, 'invalid request, either offset or key is expected, got both');
    const limitParam = Number(q.get('pagination.limit') ?? 0);
    const limit = limitParam > 0 ? limitParam : 100;
    const countTotal = q.get('pagination.count_total') === 'true' || limitParam <= 0;
    const ordered = q.get('pagination.reverse') === 'true' ? [...items].reverse() : items;
    // Our next_key is opaque to clients, like the store keys of a real node.
    const start = key
        ? Number(Buffer.from(key, 'base64').toString('utf8').replace('idx:', '')) || 0
        : Number(offsetText ?? 0);
    const page = ordered.slice(start, start + limit);
    const nextKey = start + limit < ordered.length ? toBase64(Buffer.from(`idx:${start + limit}`)) : null;
    return json(200, {
        [field]: page.map(render),
        pagination: { next_key: nextKey, total: countTotal && !key ? String(ordered.length) : '0' },
    });
}
