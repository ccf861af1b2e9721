import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { failureSentence } from '../db/outage';
import { isRedisUnavailable } from '../db/redis';
import { ApiError } from '../errors';
import { setSecurityHeaders } from './security-headers';

/** Turns every failure into react-admin's `{message, errors}`; a 5xx says nothing about its cause but logs it. */
export function registerErrorHandling(app: FastifyInstance): void {
    app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
        if (err instanceof ApiError) {
            return reply
                .status(err.statusCode)
                .send({ message: err.message, ...(err.errors ? { errors: err.errors } : {}) });
        }
        if (hasZodFastifySchemaValidationErrors(err)) {
            const errors: Record<string, string> = {};
            for (const v of err.validation) {
                const keys = (v.params as { keys?: string[] }).keys;
                if (v.keyword === 'unrecognized_keys' && keys) {
                    for (const k of keys) errors[k] ??= `Unknown field ${k}`;
                    continue;
                }
                const field = v.instancePath.replace(/^\//, '').split('/')[0] || err.validationContext || 'body';
                errors[field] ??= v.message ?? 'Invalid value';
            }
            const first = Object.entries(errors)[0];
            return reply.status(400).send({ message: first ? `${first[0]}: ${first[1]}` : 'Invalid request', errors });
        }
        const status = err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
        const unavailable = status >= 500 ? (databaseUnavailable(app, err) ?? sharedStateUnavailable(err)) : null;
        if (unavailable) return reply.status(503).send(unavailable);
        if (status >= 500) {
            req.log.error({ err, method: req.method, url: req.url.split('?')[0] }, 'Request failed');
            return reply.status(500).send({ message: 'Internal server error' });
        }
        // Fastify's own body refusals (invalid JSON, empty body, wrong content type, too large) are about the body.
        const bodyError = typeof err.code === 'string' && err.code.startsWith('FST_ERR_CTP_');
        return reply
            .status(status)
            .send({ message: err.message, ...(bodyError ? { errors: { body: err.message } } : {}) });
    });
}

/**
 * A failure of the database itself answers 503 with a sentence saying so (and why, when the database told),
 * instead of a bare 500; the outage is logged once, by the shared tracker, not once per request.
 */
function databaseUnavailable(app: FastifyInstance, err: unknown): { message: string } | null {
    const failure = app.ctx?.dbHealth.failed(err, 'the API');
    return failure ? { message: failureSentence(failure) } : null;
}

/** The cluster's Redis down or restarting: what needs it (sign-in, tests' limits, log tickets) waits for it to return. */
function sharedStateUnavailable(err: unknown): { message: string } | null {
    return isRedisUnavailable(err) ? { message: 'Redis is not answering, try again in a moment' } : null;
}

/**
 * Answers for URLs the router refuses before any route or hook runs: a malformed percent-escape (400) and an
 * over-long path parameter such as a 10 kB id (404). Fastify's default echoes the whole URL back without the
 * security headers; these answer briefly, with them.
 */
export function frameworkErrors(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
    setSecurityHeaders(reply);
    if (err.code === 'FST_ERR_BAD_URL') {
        reply.status(400).send({ message: 'Invalid URL', errors: { url: 'The URL is not validly encoded' } });
        return;
    }
    if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        reply.status(404).send({ message: 'Not found' });
        return;
    }
    reply.status(err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400);
    reply.send({ message: 'Invalid request' });
}
