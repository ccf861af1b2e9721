/**
 * Cosmos base denoms whose prefix names their exponent: `uatom` is micro-ATOM (10^6 to one ATOM), `aevmos` atto-EVMOS
 * (10^18). Other denoms carry no exponent the console knows of, and stay in base units.
 */
const PREFIX_EXPONENTS: Record<string, number> = { u: 6, a: 18 };

/** A base-unit amount in whole tokens where the denom's exponent is known: `195312402881 uatom` → `195,312 ATOM`. */
export function tokenAmount(baseUnits: string, denom: string | null): string {
    const match = denom ? /^([ua])([a-z]{2,})$/.exec(denom) : null;
    const exponent = match?.[1] ? PREFIX_EXPONENTS[match[1]] : undefined;
    if (!match?.[2] || exponent === undefined || !/^\d+$/.test(baseUnits)) {
        return `${baseUnits} ${denom ?? ''}`.trimEnd();
    }
    const whole = BigInt(baseUnits) / 10n ** BigInt(exponent);
    return `${whole.toLocaleString('en-US')} ${match[2].toUpperCase()}`;
}
