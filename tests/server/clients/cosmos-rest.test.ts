import { createRestClient } from '../../../server/clients/cosmos-rest';
import { createHttpClient, withPolicy } from '../../../server/clients/http';
import { decTimesInt } from '../../../server/clients/wire';
import { fixture, type Loopback, routes, startLoopback } from '../check-support';

const http = withPolicy(createHttpClient({ timeoutMs: 2000 }), { allowedNetworks: ['127.0.0.0/8'] });
let rest: Loopback;
const UBIK = 'cosmosvaloper1q6d3d089hg59x6gcx92uumx70s5y5wadklue8s';
const MISSING = 'cosmosvaloper1qphf0ferqcch0jca9hlqfm3x0eds3dpkcvpafp';

beforeAll(async () => {
    rest = await startLoopback(
        routes({
            [`/cosmos/staking/v1beta1/validators/${UBIK}`]: fixture('cosmos-staking-validator-single-cosmoshub-4.json'),
            [`/cosmos/staking/v1beta1/validators/${MISSING}`]: {
                status: 404,
                body: fixture('derived-cosmos-rest-error-validator-not-found.json'),
            },
            '/cosmos/slashing/v1beta1/params': fixture('cosmos-slashing-params-cosmoshub-4.json'),
            '/cosmos/slashing/v1beta1/signing_infos/cosmosvalcons1rt4g447zhv6jcqwdl447y88guwm0eevnrelgzc': fixture(
                'cosmos-slashing-signing-info-cosmoshub-4.json'
            ),
            '/cosmos/slashing/v1beta1/signing_infos/cosmosvalcons1u4ryewyrrz5cwf9ll60qckgjng4ntug726d6vf': {
                status: 404,
                body: fixture('derived-cosmos-rest-error-signing-info-not-found.json'),
            },
            '/cosmos/base/tendermint/v1beta1/blocks/latest': fixture(
                'cosmos-base-tendermint-blocks-latest-andromeda-1.json'
            ),
            '/cosmos/base/tendermint/v1beta1/syncing': fixture('derived-cosmos-base-tendermint-syncing.json'),
            [`/oracle/validators/${UBIK}/miss`]: fixture('derived-kujira-oracle-miss.json'),
            '/sdk-block-only/cosmos/base/tendermint/v1beta1/blocks/latest': JSON.stringify({
                sdk_block: { header: { height: '123', time: '2026-11-21T08:00:00.5Z', chain_id: 'x-1' } },
                block: null,
            }),
            '/terse/cosmos/base/tendermint/v1beta1/syncing': '{}',
            [`/terse/cosmos/staking/v1beta1/validators/${UBIK}`]: JSON.stringify({
                validator: {
                    operator_address: UBIK,
                    consensus_pubkey: { '@type': '/cosmos.crypto.ed25519.PubKey', key: 'AAAA' },
                    status: 'BOND_STATUS_BONDED',
                },
            }),
            [`/sei-protocol/sei-chain/oracle/validators/${UBIK}/vote_penalty_counter`]: JSON.stringify({
                vote_penalty_counter: { miss_count: '7', abstain_count: '3', success_count: '900' },
            }),
            [`/ojo/oracle/v1/validators/${UBIK}/miss`]: {
                status: 501,
                body: fixture('cosmos-rest-error-not-implemented.json'),
            },
        })
    );
});
afterAll(() => rest.close());

describe('Cosmos REST client', () => {
    it('reads the latest block from sdk_block when a node sends no block', async () => {
        expect(await createRestClient(http, `${rest.url}/sdk-block-only`).latestBlock()).toEqual({
            height: 123,
            timeMs: Date.parse('2026-11-21T08:00:00.5Z'),
            chainId: 'x-1',
        });
    });

    it('takes a false boolean that proto3 JSON left out as false', async () => {
        const client = createRestClient(http, `${rest.url}/terse`);
        expect(await client.syncing()).toBe(false);
        expect((await client.validator(UBIK)).jailed).toBe(false);
    });

    it("counts Sei's misses and abstentions as misses", async () => {
        const path = `/sei-protocol/sei-chain/oracle/validators/${UBIK}/vote_penalty_counter`;
        expect(await createRestClient(http, rest.url).oracleMissCounter(path)).toBe(10);
    });

    it('reads a staking validator', async () => {
        const v = await createRestClient(http, rest.url).validator(UBIK);
        expect(v).toMatchObject({
            moniker: 'Ubik Capital',
            status: 'BOND_STATUS_BONDED',
            jailed: false,
            consensusPubkey: {
                type: '/cosmos.crypto.ed25519.PubKey',
                key: 'uEUR1gpesU4bnSWL2TOXOf3org2mCYhQHMYkiCJyMD4=',
            },
        });
    });

    it('turns a NotFound body into a sentence naming the validator', async () => {
        await expect(createRestClient(http, rest.url).validator(MISSING)).rejects.toThrow(
            `: validator ${MISSING} not found`
        );
    });

    it('computes the jail budget from slashing params', async () => {
        expect(await createRestClient(http, rest.url).slashingParams()).toEqual({
            signedBlocksWindow: 10000,
            maxMissed: 9500,
        });
    });

    it('reads signing info, and null when there is none', async () => {
        const client = createRestClient(http, rest.url);
        expect(await client.signingInfo('cosmosvalcons1rt4g447zhv6jcqwdl447y88guwm0eevnrelgzc')).toEqual({
            missedBlocksCounter: 8,
            jailedUntilMs: null,
            tombstoned: false,
            startHeight: 14778937,
            indexOffset: 5662147,
        });
        expect(await client.signingInfo('cosmosvalcons1u4ryewyrrz5cwf9ll60qckgjng4ntug726d6vf')).toBeNull();
    });

    it('reads latest block and syncing', async () => {
        const client = createRestClient(http, rest.url);
        expect(await client.latestBlock()).toEqual({
            height: 4984052,
            timeMs: Date.UTC(2024, 10, 1, 11, 21, 2, 488),
            chainId: 'andromeda-1',
        });
        expect(await client.syncing()).toBe(false);
    });

    it('reads an oracle miss counter and explains Not Implemented', async () => {
        const client = createRestClient(http, rest.url);
        expect(await client.oracleMissCounter(`/oracle/validators/${UBIK}/miss`)).toBe(12);
        await expect(client.oracleMissCounter(`/ojo/oracle/v1/validators/${UBIK}/miss`)).rejects.toThrow(
            'this path is not served (Not Implemented)'
        );
    });

    it('reports an unreachable service with its label', async () => {
        await expect(createRestClient(http, 'http://127.0.0.1:1').syncing()).rejects.toThrow(
            'REST service http://127.0.0.1:1/cosmos/base/tendermint/v1beta1/syncing refused the connection'
        );
    });
});

describe('decTimesInt', () => {
    it.each([
        ['0.050000000000000000', 10000, 500],
        ['0.500000000000000000', 3, 2], // 1.5 rounds half to even
        ['0.500000000000000000', 5, 2], // 2.5 rounds half to even
        ['0.333333333333333333', 100, 33],
    ])('%s × %d = %d', (dec, n, expected) => {
        expect(decTimesInt(dec, n)).toBe(expected);
    });
});
