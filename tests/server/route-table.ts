import type { FastifyInstance, HTTPMethods } from 'fastify';

export interface Route {
    method: HTTPMethods;
    url: string;
}

/** Every registered route, read from Fastify's own route tree (so a route added later is covered too). */
export function registeredRoutes(app: FastifyInstance): Route[] {
    const out: Route[] = [];
    const stack: string[] = [];
    for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
        const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
        if (!m) continue;
        const depth = (m[1]?.length ?? 0) / 4;
        stack.length = depth;
        stack.push(m[2] ?? '');
        for (const method of (m[3] ?? '').split(',').map((s) => s.trim())) {
            if (method) out.push({ method: method as HTTPMethods, url: stack.join('') });
        }
    }
    return out;
}
