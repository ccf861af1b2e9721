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

export function createLogger(config: Pick<AppConfig, 'logLevel'>, hub: LogHub, extra?: NodeJS.WritableStream) {
    const streams: pino.StreamEntry[] = [
        { level: 'debug', stream: hub.stream },
        { level: config.logLevel === 'silent' ? 'fatal' : config.logLevel, stream: extra ?? process.stdout },
    ];
    return pino(
        {
            level: config.logLevel === 'debug' || config.logLevel === 'trace' ? config.logLevel : 'info',
            redact: { paths: REDACT, censor: '[redacted]' },
        },
        pino.multistream(streams)
    );
}
