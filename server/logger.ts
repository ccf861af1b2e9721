import pino from 'pino';
import { SECRET_SETTING_KEYS } from '../common/channel-catalogue';
import type { AppConfig } from './config';
import type { LogHub } from './logs/hub';

/** Paths pino blanks out before a line is written anywhere (stdout or the log tail). */
const REDACT = [
    'req.headers.authorization',
    'req.headers.cookie',
    'password',
    'raw_password',
    'token',
    '*.password',
    '*.raw_password',
    '*.token',
    '*.accessToken',
    '*.refreshToken',
    // Every channel type's secret settings (the catalogue says which), wherever a settings object is logged.
    ...SECRET_SETTING_KEYS.flatMap((key) => [key, `*.${key}`, `*.configuration_object.${key}`]),
];

/**
 * A failed Drizzle query says `Failed query: <sql>\nparams: <every bound value>`, ciphertexts and password hashes
 * included. The SQL and the database's reason stay in the log; the values never do.
 */
const PARAMS_LINE = /\nparams: [^\n]*/g;

export function withoutBoundParams(text: string, params?: unknown): string {
    let out = text;
    // The exact rendering first: a value may itself hold a newline the line pattern would stop at.
    if (Array.isArray(params) && params.length > 0)
        out = out.split(`\nparams: ${String(params)}`).join('\nparams: [redacted]');
    return out.replace(PARAMS_LINE, '\nparams: [redacted]');
}

function scrubErr(err: unknown): unknown {
    if (!(err instanceof Error)) return err;
    const params = (err as { params?: unknown }).params;
    const out = pino.stdSerializers.err(err) as unknown as Record<string, unknown>;
    const scrub = (v: unknown): unknown => {
        if (typeof v === 'string') return withoutBoundParams(v, params);
        if (v && typeof v === 'object') {
            for (const [k, x] of Object.entries(v)) {
                if (k === 'params') delete (v as Record<string, unknown>)[k];
                else (v as Record<string, unknown>)[k] = scrub(x);
            }
        }
        return v;
    };
    return scrub(out);
}

export function createLogger(config: Pick<AppConfig, 'logLevel'>, hub: LogHub, extra?: NodeJS.WritableStream) {
    const streams: pino.StreamEntry[] = [
        { level: 'debug', stream: hub.stream },
        { level: config.logLevel === 'silent' ? 'fatal' : config.logLevel, stream: extra ?? process.stdout },
    ];
    return pino(
        {
            level: config.logLevel === 'debug' || config.logLevel === 'trace' ? config.logLevel : 'info',
            redact: { paths: REDACT, censor: '[redacted]' },
            serializers: { err: scrubErr, error: scrubErr },
            hooks: {
                // A sentence built from an error's message (`failed: ${err.message}`) is scrubbed too.
                logMethod(args, method) {
                    const clean = args.map((a) => (typeof a === 'string' ? withoutBoundParams(a) : a));
                    return method.apply(this, clean as Parameters<typeof method>);
                },
            },
        },
        pino.multistream(streams)
    );
}
