// Terra-style price-oracle REST routes for the chain's flavour (protocols.md §4): miss counter per valoper,
// params, and slash-window progress where the module has it. Other flavours' paths fall through to 501.
import type { OracleFlavour } from './chain';
import { dec } from './format';
import { checkBech32, type RestContext } from './gateway';
import { json, type SimResponse } from './http';

interface Flavour {
    /** Path prefix of the module's gateway routes. */
    base: string;
    hasSlashWindow: boolean;
    params: Record<string, unknown>;
}

const common = {
    vote_threshold: dec('0.5'),
    slash_fraction: dec('0.0001'),
    min_valid_per_window: dec('0.05'),
};

export const FLAVOURS: Record<OracleFlavour, Flavour> = {
    // Kujira has no module/version prefix.
    kujira: {
        base: '/oracle',
        hasSlashWindow: false,
        params: {
            vote_period: '14',
            vote_threshold: common.vote_threshold,
            reward_band: dec('0.02'),
            reward_distribution_window: '14250000',
            whitelist: [],
            slash_fraction: common.slash_fraction,
            slash_window: '274000',
            min_valid_per_window: common.min_valid_per_window,
        },
    },
    umee: {
        base: '/umee/oracle/v1',
        hasSlashWindow: true,
        params: {
            vote_period: '5',
            vote_threshold: common.vote_threshold,
            reward_band: dec('0.02'),
            reward_distribution_window: '5256000',
            accept_list: [{ base_denom: 'uumee', symbol_denom: 'umee', exponent: 6 }],
            slash_fraction: common.slash_fraction,
            slash_window: '100800',
            min_valid_per_window: common.min_valid_per_window,
            historic_stamp_period: '50',
            median_stamp_period: '1800',
            maximum_price_stamps: '36',
            maximum_median_stamps: '24',
        },
    },
    ojo: {
        base: '/ojo/oracle/v1',
        hasSlashWindow: true,
        params: {
            vote_period: '3',
            vote_threshold: common.vote_threshold,
            reward_bands: [],
            reward_distribution_window: '5256000',
            accept_list: [],
            mandatory_list: [],
            slash_fraction: common.slash_fraction,
            slash_window: '100800',
            min_valid_per_window: common.min_valid_per_window,
            historic_stamp_period: '50',
            median_stamp_period: '1800',
            maximum_price_stamps: '36',
            maximum_median_stamps: '24',
            currency_pair_providers: [],
            currency_deviation_thresholds: [],
        },
    },
    'terra-classic': {
        base: '/terra/oracle/v1beta1',
        hasSlashWindow: false,
        params: {
            vote_period: '5',
            vote_threshold: common.vote_threshold,
            reward_band: dec('0.02'),
            reward_distribution_window: '9600000',
            whitelist: [{ name: 'uusd', tobin_tax: dec('0.0035') }],
            slash_fraction: common.slash_fraction,
            slash_window: '432000',
            min_valid_per_window: common.min_valid_per_window,
        },
    },
    // Package nibiru.oracle.v1, but the HTTP path says v1beta1.
    nibiru: {
        base: '/nibiru/oracle/v1beta1',
        hasSlashWindow: false,
        params: {
            vote_period: '30',
            vote_threshold: common.vote_threshold,
            reward_band: dec('0.02'),
            whitelist: ['ubtc:unusd', 'ueth:unusd'],
            slash_fraction: common.slash_fraction,
            slash_window: '3600',
            min_valid_per_window: common.min_valid_per_window,
            twap_lookback_window: '259200s',
            min_voters: '4',
            validator_fee_ratio: dec('0.05'),
            expiration_blocks: '900',
        },
    },
};

/** The oracle route for `path`, or null when the chain's oracle module does not serve it. */
export function oracleRoute(ctx: RestContext, path: string): SimResponse | null {
    const chain = ctx.node.chain;
    const flavourName = chain.config.oracle;
    if (!flavourName) return null;
    const flavour = FLAVOURS[flavourName];
    if (!path.startsWith(`${flavour.base}/`)) return null;
    const rest = path.slice(flavour.base.length);
    if (rest === '/params') return json(200, { params: flavour.params });
    const miss = rest.match(/^\/validators\/([^/]+)\/miss$/);
    if (miss) {
        const valoper = decodeURIComponent(miss[1] ?? '');
        const bad = checkBech32(valoper, `${chain.config.prefix}valoper`);
        if (bad) return bad;
        // The keeper returns 0 for a validator it has no counter for.
        const v = chain.validators.find((x) => x.valoper === valoper);
        return json(200, { miss_counter: String(v?.oracleMissCounter ?? 0) });
    }
    if (flavour.hasSlashWindow && rest === '/slash_window') {
        // Vote periods elapsed in the current slash window.
        const votePeriod = Number(flavour.params.vote_period);
        const window = Number(flavour.params.slash_window);
        return json(200, { window_progress: String(Math.floor((ctx.height % window) / votePeriod)) });
    }
    if (flavourName === 'umee' && rest === '/miss_counters') {
        const only = ctx.query.get('validator');
        const list = chain.validators
            .filter((v) => !only || v.valoper === only)
            .map((v) => ({ validator: v.valoper, miss_counter: String(v.oracleMissCounter) }));
        return json(200, { miss_counters: list });
    }
    return null;
}
