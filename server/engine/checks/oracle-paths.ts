/**
 * Oracle miss-counter paths by chain (protocols.md §4). The Terra-style modules answer `{"miss_counter":"<uint64>"}`
 * for the valoper in the path; Sei answers its vote penalty counter instead (the client reads both). A monitor's
 * `oracle_path` setting overrides the table.
 */
const UMEE = '/umee/oracle/v1/validators/{valoper}/miss';
const TERRA_CLASSIC = '/terra/oracle/v1beta1/validators/{valoper}/miss';

export const ORACLE_MISS_PATHS: Readonly<Record<string, string>> = {
    kujira: '/oracle/validators/{valoper}/miss',
    umee: UMEE,
    ux: UMEE, // Umee's rebrand kept the umee REST paths
    ojo: '/ojo/oracle/v1/validators/{valoper}/miss',
    terra: TERRA_CLASSIC, // chain-registry's `terra` is Terra Classic (columbus-5); Terra 2 is `terra2`
    terraclassic: TERRA_CLASSIC,
    'terra-classic': TERRA_CLASSIC,
    nibiru: '/nibiru/oracle/v1beta1/validators/{valoper}/miss',
    symphony: '/symphony/oracle/v1beta1/validators/{valoper}/miss',
    sei: '/sei-protocol/sei-chain/oracle/validators/{valoper}/vote_penalty_counter',
};

/** The path template for a chain: the override, the table entry (testnet names share it), or null. */
export function oracleMissPathTemplate(chainName: string, override: string | null): string | null {
    if (override) return override;
    const name = chainName.trim().toLowerCase();
    return ORACLE_MISS_PATHS[name] ?? ORACLE_MISS_PATHS[name.replace(/-?testnet$/, '')] ?? null;
}

export function fillValoper(template: string, valoper: string): string {
    return template.replaceAll('{valoper}', encodeURIComponent(valoper));
}
