import type { EgressPolicy } from '../clients/address-guard';
import { withPolicy } from '../clients/http';
import type { AppContext } from '../context';
import type { NotifyContext } from './channels/types';
import { actionKey } from './telegram/callback-data';

/** Derived once per app secret: every send would otherwise derive it anew. */
const keys = new Map<string, Uint8Array>();
const keyFor = (appSecret: string) => {
    const key = keys.get(appSecret) ?? actionKey(appSecret);
    keys.set(appSecret, key);
    return key;
};

/** The senders' view of the app, on behalf of one company: its allowed networks apply to every destination. */
export const notifyContext = (ctx: AppContext, policy: EgressPolicy): NotifyContext => ({
    http: withPolicy(ctx.http, policy),
    apiUrls: { telegram: ctx.config.telegramApiUrl, pagerduty: ctx.config.pagerdutyEventsUrl },
    allowPrivate: ctx.config.allowPrivateTargets,
    policy,
    actionKey: keyFor(ctx.config.appSecret),
});
