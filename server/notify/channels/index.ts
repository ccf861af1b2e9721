import type { ChannelType } from '../../../common/channel-types';
import { discord } from './discord';
import { email } from './email';
import { pagerduty } from './pagerduty';
import { validateSettings } from './settings';
import { slack } from './slack';
import { telegram } from './telegram';
import { webhook } from './webhook';
import type { ChannelDefinition } from './types';

export type { ChannelConfig, ChannelDefinition, NotifyContext, SendResult, ValidateResult } from './types';

/** Every channel type, one line each: a type missing here does not compile. */
export const CHANNELS: Record<ChannelType, ChannelDefinition> = {
    telegram: telegram as ChannelDefinition,
    discord: discord as ChannelDefinition,
    slack: slack as ChannelDefinition,
    pagerduty: pagerduty as ChannelDefinition,
    webhook: webhook as ChannelDefinition,
    email: email as ChannelDefinition,
};

/** Checks submitted settings against the catalogue and the type's own rules. */
export const validateChannelSettings = (type: ChannelType, raw: unknown) =>
    validateSettings(type, raw, CHANNELS[type].check);
