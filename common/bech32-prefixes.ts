/**
 * Chains whose operator and consensus prefixes do not follow `<p>valoper` / `<p>valcons` (protocols.md §3):
 * IRISnet uses iaa/iva/ica, and Crypto.org's consensus prefix is crocnclcons (cosmos.directory's override).
 */
const EXCEPTIONS: readonly { account: string; valoper: string; valcons: string }[] = [
    { account: 'iaa', valoper: 'iva', valcons: 'ica' },
    { account: 'cro', valoper: 'crocncl', valcons: 'crocnclcons' },
];

/** True for a prefix of an operator address (`cosmosvaloper`, `iva`, `crocncl`, …). */
export function isValoperPrefix(prefix: string): boolean {
    return prefix.endsWith('valoper') || EXCEPTIONS.some((e) => e.valoper === prefix);
}

/** The account prefix a valoper prefix belongs to. */
export function accountPrefixOfValoper(valoperPrefix: string): string {
    return EXCEPTIONS.find((e) => e.valoper === valoperPrefix)?.account ?? valoperPrefix.replace(/valoper$/, '');
}

/** The consensus address prefix of an account prefix. */
export function valconsPrefixOf(accountPrefix: string): string {
    return EXCEPTIONS.find((e) => e.account === accountPrefix)?.valcons ?? `${accountPrefix}valcons`;
}
