import type { EgressPolicy } from '../clients/address-guard';
import { withPolicy } from '../clients/http';
import type { AppContext } from '../context';
import type { NotifyContext } from './channels/types';

/** The senders' view of the app, on behalf of one company: its allowed networks apply to every destination. */
export const notifyContext = (ctx: AppContext, policy: EgressPolicy): NotifyContext => ({
    http: withPolicy(ctx.http, policy),
    apiUrls: { telegram: ctx.config.telegramApiUrl, pagerduty: ctx.config.pagerdutyEventsUrl },
    allowPrivate: ctx.config.allowPrivateTargets,
    policy,
});
