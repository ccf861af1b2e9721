import type { ChannelType } from '../../../common/channel-types';
import { validateSettings } from './settings';
import { telegram } from './telegram';
import type { ChannelDefinition } from './types';

export type { ChannelConfig, ChannelDefinition, NotifyContext, SendResult, ValidateResult } from './types';

/** Every channel type, one line each: a type missing here does not compile. */
export const CHANNELS: Record<ChannelType, ChannelDefinition> = {
    telegram: telegram as ChannelDefinition,
};

/** Checks submitted settings against the catalogue and the type's own rules. */
export const validateChannelSettings = (type: ChannelType, raw: unknown) =>
    validateSettings(type, raw, CHANNELS[type].check);
