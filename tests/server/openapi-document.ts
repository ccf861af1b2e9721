import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

interface Operation {
    parameters?: unknown[];
    requestBody?: unknown;
    responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}

export interface OpenApiDocument {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
}

/** `/api/servers/{id}` matching `/api/servers/7`; static segments win, so `/api/servers/storage` finds its own path. */
function templateOf(doc: OpenApiDocument, method: string, url: string): string | null {
    const path = url.split('?')[0] ?? url;
    const candidates = Object.keys(doc.paths)
        .filter((t) => doc.paths[t]?.[method.toLowerCase()])
        .filter((t) => new RegExp(`^${t.replace(/\{\w+\}/g, '[^/]+')}$`).test(path))
        .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
    return candidates[0] ?? null;
}

/**
 * Checks real answers against the app's own /api/openapi.json with a JSON Schema 2020-12 validator (OpenAPI 3.1's
 * dialect): the answer's status must be documented for its route, and its body must match that status's schema.
 */
export class DocumentChecker {
    private readonly ajv = new Ajv2020({ allErrors: true, strict: true });
    /** `GET /api/servers/{id} 200` for every answer checked. */
    readonly checked = new Set<string>();
    private readonly compiled = new WeakMap<object, ValidateFunction>();

    private constructor(readonly doc: OpenApiDocument) {
        addFormats.default(this.ajv);
    }

    static async load(app: FastifyInstance): Promise<DocumentChecker> {
        const res = await app.inject({ url: '/api/openapi.json' });
        return new DocumentChecker(res.json() as OpenApiDocument);
    }

    /** The problems of one answer (empty when it matches the document). */
    check(method: string, url: string, res: LightMyRequestResponse): string[] {
        const template = templateOf(this.doc, method, url);
        if (!template) return [`${method} ${url}: no documented route`];
        const responses = this.doc.paths[template]?.[method.toLowerCase()]?.responses ?? {};
        const status = String(res.statusCode);
        const key = [status, `${status[0]}XX`, 'default'].find((k) => responses[k]);
        const where = `${method} ${template} ${status}`;
        if (!key) return [`${where}: status not documented`];
        this.checked.add(where);
        if (res.statusCode === 204) return [];
        const contentType = String(res.headers['content-type'] ?? '').split(';')[0] ?? '';
        const schema = responses[key]?.content?.[contentType]?.schema;
        if (!schema) return [`${where}: no schema for ${contentType}`];
        const body: unknown = contentType.includes('json') ? res.json() : res.body;
        const validate = this.compiled.get(schema) ?? this.ajv.compile(schema);
        this.compiled.set(schema, validate);
        if (validate(body)) return [];
        return [`${where}: ${this.ajv.errorsText(validate.errors)}`];
    }
}
