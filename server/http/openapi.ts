import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * The OpenAPI 3.1 document, generated from the routes' zod schemas, at GET /api/openapi.json, and a reference page
 * at /api/docs served from the npm package (no network). Registered before the routes so that every route is seen.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
    await app.register(swagger, {
        openapi: {
            openapi: '3.1.0',
            info: {
                title: 'Node Monitor API',
                version: '1',
                description:
                    'The console API. Every /api route but login, refresh, health and these documents needs `Authorization: Bearer <access token>`.',
            },
            components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
            security: [{ bearer: [] }],
        },
        transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { deepLinking: false } });
    app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
