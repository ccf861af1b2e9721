import { type BlockList, isIP, type LookupFunction } from 'node:net';
import { refusalReason, refusedHostName } from './address-guard';
import { RefusedAddress } from './http-errors';

export type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** Why a URL may not be requested at all (scheme, host name, IP literal), or null. */
export function targetRefusal(url: URL, allowPrivate: boolean, allowed: BlockList | null): string | null {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        return `is refused: only http and https URLs are allowed, not ${url.protocol.replace(':', '')}`;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const byName = refusedHostName(host);
    if (byName) return `is refused: ${byName}`;
    // An IP literal skips `lookup`, so it is judged here.
    if (isIP(host)) {
        const why = refusalReason(host, allowPrivate, allowed);
        if (why) return `is refused: ${why}`;
    }
    return null;
}

/** A `lookup` for sockets that checks every address a name resolves to, at connect time (DNS rebinding). */
export function guardedLookup(allowPrivate: boolean, allowed: BlockList | null, resolve: Resolve): LookupFunction {
    return (hostname, options, callback) => {
        resolve(hostname).then(
            (all) => {
                const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
                const addrs = wanted ? all.filter((a) => a.family === wanted) : all;
                const first = addrs[0];
                if (!first) {
                    const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
                    err.code = 'ENOTFOUND';
                    callback(err, '', 0);
                    return;
                }
                // Refuse when any answer is refused: a name that mixes public and internal answers is suspect.
                for (const a of addrs) {
                    const why = refusalReason(a.address, allowPrivate, allowed);
                    if (why) {
                        callback(new RefusedAddress(`is refused: ${hostname} resolves to ${why}`), '', 0);
                        return;
                    }
                }
                if (options.all) callback(null, addrs);
                else callback(null, first.address, first.family);
            },
            (err: NodeJS.ErrnoException) => callback(err, '', 0)
        );
    };
}
