import { errorReason } from '../../ui/format';

/** Toast of a failed user page form (docs/spec.md §8): 'Failed! Error: ' and the server's message or the error. */
export const pageFormError = (error: unknown) => `Failed! Error: ${errorReason(error)}`;
