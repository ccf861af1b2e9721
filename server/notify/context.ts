import type { EgressPolicy } from '../clients/address-guard';
import { type HttpClient, withPolicy } from '../clients/http';
import type { AppConfig } from '../config';
import type { NotifyContext } from './channels/types';
import { actionKey } from './telegram/callback-data';

/** Derived once per app secret: every send would otherwise derive it anew. */
const keys = new Map<string, Uint8Array>();
const keyFor = (appSecret: string) => {
    const key = keys.get(appSecret) ?? actionKey(appSecret);
    keys.set(appSecret, key);
    return key;
};

/** What a sender needs of the app: the egress client and the providers' addresses. */
export interface SenderPorts {
    http: HttpClient;
    config: Pick<AppConfig, 'telegramApiUrl' | 'pagerdutyEventsUrl' | 'allowPrivateTargets' | 'appSecret'>;
}

/** The senders' view of the app, on behalf of one company: its allowed networks apply to every destination. */
export const notifyContext = (ctx: SenderPorts, policy: EgressPolicy): NotifyContext => ({
    http: withPolicy(ctx.http, policy),
    apiUrls: { telegram: ctx.config.telegramApiUrl, pagerduty: ctx.config.pagerdutyEventsUrl },
    allowPrivate: ctx.config.allowPrivateTargets,
    policy,
    actionKey: keyFor(ctx.config.appSecret),
});
