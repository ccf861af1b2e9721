import type { AppContext } from '../context';
import type { NotifyContext } from './channels/types';

export const notifyContext = (ctx: AppContext): NotifyContext => ({
    http: ctx.http,
    apiUrls: { telegram: ctx.config.telegramApiUrl, pagerduty: ctx.config.pagerdutyEventsUrl },
    allowPrivate: ctx.config.allowPrivateTargets,
});
