// Chain simulator: wire shapes against the reference fixtures, address consistency across protocols,
// paging, and every fault of the control API (programmatic and HTTP).
import { readFileSync } from 'node:fs';
import { type ChainSim, startChainSim } from '../../tools/chain-sim/index';
import { goFloat, rfc3339Nano } from '../../tools/chain-sim/format';
import { hexToValcons, pubkeyB64ToHexAddress, valconsToHex, valoperToAccount } from '../../tools/chain-sim/keys';

const FIXTURES = '/work/shared/reference/fixtures';
// biome-ignore lint/suspicious/noExplicitAny: fixtures and responses are untyped JSON
type Json = any;
const fixture = (name: string): Json => JSON.parse(readFileSync(`${FIXTURES}/${name}`, 'utf8'));

async function get(url: string, init?: RequestInit): Promise<{ status: number; body: Json; headers: Headers }> {
    const res = await fetch(url, init);
    const text = await res.text();
    let body: Json = text;
    try {
        body = JSON.parse(text);
    } catch {
        // not JSON: keep the text
    }
    return { status: res.status, body, headers: res.headers };
}

const rpc = async (sim: ChainSim, path: string, node = 0) => get(`${sim.nodes[node]?.rpcUrl}${path}`);
const rest = async (sim: ChainSim, path: string, node = 0) => get(`${sim.nodes[node]?.restUrl}${path}`);
const text = async (url: string) => (await fetch(url)).text();

/**
 * Recursively check that `actual` has the fixture's keys with the same JSON types. Empty arrays and null values
 * in either side are wildcards (a trimmed fixture or an absent vote says nothing about element shape).
 */
function expectSameShape(actual: Json, expected: Json, path = '$', ignore: string[] = []): void {
    if (ignore.includes(path) || expected === null || actual === null) return;
    const kind = (v: Json) => (Array.isArray(v) ? 'array' : typeof v);
    expect(kind(actual), path).toBe(kind(expected));
    if (Array.isArray(expected)) {
        if (expected.length && actual.length) expectSameShape(actual[0], expected[0], `${path}[]`, ignore);
        return;
    }
    if (typeof expected === 'object') {
        const keys = Object.keys(expected).filter((k) => !ignore.includes(`${path}.${k}`));
        expect(Object.keys(actual).sort(), path).toEqual(expect.arrayContaining(keys.sort()));
        for (const k of keys) expectSameShape(actual[k], expected[k], `${path}.${k}`, ignore);
    }
}

describe('address conversions', () => {
    const examples: Json[] = fixture('computed-address-conversion-examples.json');
    it.each(examples.map((e) => [e.valcons, e]))('worked example %s', (_name, e) => {
        expect(pubkeyB64ToHexAddress(e.consensus_pubkey.key)).toBe(e.cometbft_address_hex);
        expect(hexToValcons(e.cometbft_address_hex, 'cosmos')).toBe(e.valcons);
        expect(valconsToHex(e.valcons)).toBe(e.cometbft_address_hex);
        expect(valoperToAccount(e.valoper, 'cosmos')).toBe(e.account_address);
        expect(Buffer.from(e.cometbft_address_hex, 'hex').toString('base64')).toBe(
            e.cometbft_address_base64_as_in_rest_blocks
        );
    });
});

describe('formatting helpers', () => {
    it('prints floats like Go', () => {
        expect(goFloat(14413293)).toBe('1.4413293e+07');
        expect(goFloat(81394819072)).toBe('8.1394819072e+10');
        expect(goFloat(343859)).toBe('343859');
        expect(goFloat(1000000)).toBe('1e+06');
        expect(goFloat(30.135179846)).toBe('30.135179846');
        expect(goFloat(0)).toBe('0');
        expect(goFloat(0.00001)).toBe('1e-05');
        expect(goFloat(Number.POSITIVE_INFINITY)).toBe('+Inf');
    });
    it('prints RFC3339 with trimmed nanoseconds', () => {
        const ns = BigInt(Date.parse('2024-06-11T14:07:57Z')) * 1_000_000n;
        expect(rfc3339Nano(ns + 125195170n)).toBe('2024-06-11T14:07:57.12519517Z');
        expect(rfc3339Nano(ns)).toBe('2024-06-11T14:07:57Z');
    });
});

describe('payload shapes and consistency (manual clock)', () => {
    let sim: ChainSim;
    beforeAll(async () => {
        sim = await startChainSim({ autoStart: false, validatorCount: 5, oracle: 'kujira', chainId: 'shape-1' });
        await sim.control.produceBlocks(3);
    });
    afterAll(() => sim.close());

    it('/status matches the 0.38 fixture shape, ours in validator_info', async () => {
        const { status, body } = await rpc(sim, '/status');
        expect(status).toBe(200);
        expectSameShape(body, fixture('cometbft-0.38-status.json'));
        expect(body.id).toBe(-1);
        const s = body.result.sync_info;
        expect(s.latest_block_height).toBe(String(sim.chain.height));
        expect(s.earliest_block_height).toBe('1');
        expect(s.catching_up).toBe(false);
        expect(s.latest_block_hash).toMatch(/^[0-9A-F]{64}$/);
        expect(body.result.validator_info.address).toBe(sim.chain.ours.hexAddress);
        expect(body.result.validator_info.voting_power).toMatch(/^[1-9]\d*$/);
    });

    it('/block: hex, numeric flags, last_commit for H−1 aligned with /validators?height=H−1', async () => {
        const { body, headers } = await rpc(sim, `/block?height=${sim.chain.height}`);
        expectSameShape(body, fixture('cometbft-block-cosmoshub-4-trimmed.json'));
        expect(headers.get('cache-control')).toBe('public, max-age=86400');
        const block = body.result.block;
        expect(block.header.height).toBe(String(sim.chain.height));
        expect(block.last_commit.height).toBe(String(sim.chain.height - 1));
        expect(typeof block.last_commit.round).toBe('number');
        const vals = (await rpc(sim, `/validators?height=${sim.chain.height - 1}`)).body.result.validators;
        expect(block.last_commit.signatures.map((s: Json) => s.validator_address)).toEqual(
            vals.map((v: Json) => v.address)
        );
        for (const sig of block.last_commit.signatures) {
            expect(sig.block_id_flag).toBe(2);
            expect(sig.validator_address).toMatch(/^[0-9A-F]{40}$/);
            expect(Buffer.from(sig.signature, 'base64')).toHaveLength(64);
        }
        // Validator addresses are sha256(pubkey)[0:20].
        for (const v of vals) expect(pubkeyB64ToHexAddress(v.pub_key.value)).toBe(v.address);
    });

    it('/block without height is the head; /commit marks the head non-canonical', async () => {
        const latest = await rpc(sim, '/block');
        expect(latest.body.result.block.header.height).toBe(String(sim.chain.height));
        const head = await rpc(sim, `/commit?height=${sim.chain.height}`);
        // The kvstore app has app version 1; ours is 0, which CometBFT omits.
        expectSameShape(head.body.result, fixture('cometbft-0.38-commit-kvstore.json').result, '$', [
            '$.signed_header.header.version.app',
        ]);
        expect(head.body.result.canonical).toBe(false);
        expect(head.body.result.signed_header.commit.height).toBe(String(sim.chain.height));
        expect((await rpc(sim, '/commit?height=2')).body.result.canonical).toBe(true);
    });

    it('health, net_info, abci_info', async () => {
        expect((await rpc(sim, '/health')).body).toEqual(fixture('cometbft-0.38-health.json'));
        const net = await rpc(sim, '/net_info');
        expectSameShape(net.body.result, fixture('tendermint-net_info-with-peers-cosmoshub-2.json').result);
        expect(net.body.result.n_peers).toBe('3');
        const abci = await rpc(sim, '/abci_info');
        expectSameShape(abci.body.result, fixture('cometbft-0.38-abci_info-kvstore.json').result, '$', [
            '$.response.app_version',
        ]);
        expect(abci.body.result.response).not.toHaveProperty('app_version');
        expect(abci.body.result.response.last_block_height).toBe(String(sim.chain.height));
    });

    it('RPC errors: height 0, above head, unknown route', async () => {
        const zero = await rpc(sim, '/block?height=0');
        expect(zero.status).toBe(500);
        expect(zero.body.error).toEqual(fixture('cometbft-0.38-error-height-0.json').error);
        const above = await rpc(sim, '/block?height=9999');
        expect(above.status).toBe(500);
        expect(above.body.error.data).toBe(
            `height 9999 must be less than or equal to the current blockchain height ${sim.chain.height}`
        );
        expect((await rpc(sim, '/nope')).status).toBe(404);
    });

    it('JSON-RPC POST echoes the id (number or string), accepts object and array params', async () => {
        const post = (body: unknown) => get(sim.nodes[0]?.rpcUrl ?? '', { method: 'POST', body: JSON.stringify(body) });
        const status = await post({ jsonrpc: '2.0', id: 42, method: 'status', params: {} });
        expect(status.status).toBe(200);
        expect(status.body.id).toBe(42);
        expect(status.body.result.validator_info.address).toBe(sim.chain.ours.hexAddress);
        const block = await post({ jsonrpc: '2.0', id: 'abc', method: 'block', params: { height: '2' } });
        expect(block.body.id).toBe('abc');
        expect(block.body.result.block.header.height).toBe('2');
        const arr = await post({ jsonrpc: '2.0', id: 3, method: 'validators', params: ['2', '1', '2'] });
        expect(arr.body.result.count).toBe('2');
        const bad = await post({ jsonrpc: '2.0', id: 4, method: 'block', params: { height: '0' } });
        expect(bad.status).toBe(200);
        expect(bad.body.error.data).toBe('height must be greater than 0, but got 0');
        const unknown = await post({ jsonrpc: '2.0', id: 5, method: 'nope' });
        expect(unknown.body.error.code).toBe(-32601);
        const parse = await get(sim.nodes[0]?.rpcUrl ?? '', { method: 'POST', body: '{oops' });
        expect(parse.body.error.code).toBe(-32700);
    });

    it('validators paging follows §1.6', async () => {
        const page1 = (await rpc(sim, '/validators?per_page=2')).body.result;
        expect(page1).toMatchObject({ count: '2', total: '5', block_height: String(sim.chain.height + 1) });
        const page3 = (await rpc(sim, '/validators?per_page=2&page=3')).body.result;
        expect(page3.count).toBe('1');
        const all = (await rpc(sim, '/validators?per_page=0')).body.result; // <1 becomes 30
        expect(all.count).toBe('5');
        const big = (await rpc(sim, '/validators?per_page=1000')).body.result; // >100 becomes 100
        expect(big.count).toBe('5');
        const out = await rpc(sim, '/validators?per_page=2&page=4');
        expect(out.status).toBe(500);
        expect(out.body.error.data).toBe('page should be within [1, 3] range, given 4');
        // Sorted by power descending.
        const powers = all.validators.map((v: Json) => Number(v.voting_power));
        expect([...powers].sort((a, b) => b - a)).toEqual(powers);
        const cosmoshub = fixture('cometbft-validators-cosmoshub-4-page1.json');
        expectSameShape((await rpc(sim, '/validators')).body, cosmoshub);
    });

    it('one key, consistent everywhere: RPC hex, REST valcons and base64, staking pubkey', async () => {
        const ours = sim.chain.ours;
        const status = (await rpc(sim, '/status')).body.result.validator_info;
        expect(status.pub_key.value).toBe(ours.consensusPubkeyB64);
        expect(pubkeyB64ToHexAddress(status.pub_key.value)).toBe(status.address);
        expect(hexToValcons(status.address, 'cosmos')).toBe(ours.valcons);
        const vals = (await rpc(sim, '/validators')).body.result.validators;
        expect(vals.find((v: Json) => v.address === ours.hexAddress).pub_key.value).toBe(ours.consensusPubkeyB64);

        const staking = await rest(sim, `/cosmos/staking/v1beta1/validators/${ours.valoper}`);
        expect(staking.status).toBe(200);
        expectSameShape(staking.body.validator, fixture('cosmos-staking-validators-local-sdk-0.50.json').validators[0]);
        expect(staking.body.validator.consensus_pubkey).toEqual({
            '@type': '/cosmos.crypto.ed25519.PubKey',
            key: ours.consensusPubkeyB64,
        });
        expect(valoperToAccount(ours.valoper, 'cosmos')).toBe(ours.account);

        const info = await rest(sim, `/cosmos/slashing/v1beta1/signing_infos/${ours.valcons}`);
        expect(info.status).toBe(200);
        expectSameShape(info.body, fixture('cosmos-slashing-signing-info-cosmoshub-4.json'));
        expect(info.body.val_signing_info.address).toBe(ours.valcons);

        const all = await rest(sim, '/cosmos/slashing/v1beta1/signing_infos');
        expectSameShape(all.body, fixture('cosmos-slashing-signing-infos-cosmoshub-4-trimmed.json'));
        expect(all.body.info.map((i: Json) => i.address)).toContain(ours.valcons);

        const latest = (await rest(sim, '/cosmos/base/tendermint/v1beta1/blocks/latest')).body;
        expectSameShape(latest, fixture('cosmos-base-tendermint-blocks-latest-andromeda-1.json'));
        const sigs = latest.block.last_commit.signatures;
        expect(sigs[0].block_id_flag).toBe('BLOCK_ID_FLAG_COMMIT');
        expect(sigs.map((s: Json) => s.validator_address)).toContain(
            Buffer.from(ours.hexAddress, 'hex').toString('base64')
        );
        const proposerHex = Buffer.from(latest.block.header.proposer_address, 'base64').toString('hex').toUpperCase();
        expect(latest.sdk_block.header.proposer_address).toBe(hexToValcons(proposerHex, 'cosmos'));
    });

    it('REST params, syncing, node_info, list with pagination, errors', async () => {
        expect((await rest(sim, '/cosmos/slashing/v1beta1/params')).body.params).toEqual({
            signed_blocks_window: '100',
            min_signed_per_window: '0.050000000000000000',
            downtime_jail_duration: '600s',
            slash_fraction_double_sign: '0.050000000000000000',
            slash_fraction_downtime: '0.000100000000000000',
        });
        expectSameShape(
            (await rest(sim, '/cosmos/staking/v1beta1/params')).body,
            fixture('cosmos-staking-params-local-sdk-0.50.json')
        );
        expect((await rest(sim, '/cosmos/base/tendermint/v1beta1/syncing')).body).toEqual({ syncing: false });
        const info = (await rest(sim, '/cosmos/base/tendermint/v1beta1/node_info')).body;
        expectSameShape(info, fixture('cosmos-base-tendermint-node_info-gaia-v17.json'));
        expect(info.default_node_info.channels).toBe('QCAhIiMwOGBhAA==');

        const page = (
            await rest(sim, '/cosmos/staking/v1beta1/validators?status=BOND_STATUS_BONDED&pagination.limit=2')
        ).body;
        expect(page.validators).toHaveLength(2);
        expect(page.pagination.total).toBe('0'); // not counted unless asked
        expect(page.pagination.next_key).toEqual(expect.any(String));
        const next = (
            await rest(
                sim,
                `/cosmos/staking/v1beta1/validators?pagination.limit=2&pagination.key=${encodeURIComponent(page.pagination.next_key)}`
            )
        ).body;
        expect(next.validators[0].operator_address).not.toBe(page.validators[0].operator_address);
        const counted = (await rest(sim, '/cosmos/staking/v1beta1/validators?pagination.count_total=true')).body;
        expect(counted.pagination).toEqual({ next_key: null, total: '5' });
        const badStatus = await rest(sim, '/cosmos/staking/v1beta1/validators?status=FOO');
        expect(badStatus.status).toBe(400);
        expect(badStatus.body.code).toBe(3);

        const missing = 'cosmosvaloper1qphf0ferqcch0jca9hlqfm3x0eds3dpkcvpafp';
        const nf = await rest(sim, `/cosmos/staking/v1beta1/validators/${missing}`);
        expect(nf.status).toBe(404);
        expect(nf.body).toEqual(fixture('derived-cosmos-rest-error-validator-not-found.json'));
        const valcons = 'cosmosvalcons1u4ryewyrrz5cwf9ll60qckgjng4ntug726d6vf';
        const nsi = await rest(sim, `/cosmos/slashing/v1beta1/signing_infos/${valcons}`);
        expect(nsi.status).toBe(404);
        expect(nsi.body).toEqual(fixture('derived-cosmos-rest-error-signing-info-not-found.json'));
        const ni = await rest(sim, '/cosmos/mint/v1beta1/inflation');
        expect(ni.status).toBe(501);
        expect(ni.body).toEqual(fixture('cosmos-rest-error-not-implemented.json'));
    });

    it('absent vs nil misses: flags, shapes, slashing counter, metrics', async () => {
        const ours = sim.chain.ours;
        const counter = async () =>
            Number(
                (await rest(sim, `/cosmos/slashing/v1beta1/signing_infos/${ours.valcons}`)).body.val_signing_info
                    .missed_blocks_counter
            );
        const before = await counter();
        expect(await text(sim.nodes[0]?.metricsUrl ?? '')).not.toContain('consensus_validator_missed_blocks');

        sim.control.missSignatures({ mode: 'absent', blocks: 3 });
        await sim.control.produceBlocks(4); // the 3rd missed commit is in the 4th block's last_commit
        expect(await counter()).toBe(before + 3);
        const block = (await rpc(sim, '/block')).body.result.block;
        const vals = (await rpc(sim, `/validators?height=${block.last_commit.height}`)).body.result.validators;
        const idx = vals.findIndex((v: Json) => v.address === ours.hexAddress);
        expect(idx).toBeGreaterThanOrEqual(0);
        expect(block.last_commit.signatures[idx]).toEqual({
            block_id_flag: 1,
            validator_address: '',
            timestamp: '0001-01-01T00:00:00Z',
            signature: null,
        });
        const restSig = (await rest(sim, '/cosmos/base/tendermint/v1beta1/blocks/latest')).body.block.last_commit
            .signatures[idx];
        expect(restSig).toEqual({
            block_id_flag: 'BLOCK_ID_FLAG_ABSENT',
            validator_address: null,
            timestamp: '0001-01-01T00:00:00Z',
            signature: null,
        });
        const metrics = await text(sim.nodes[0]?.metricsUrl ?? '');
        expect(metrics).toContain(
            `cometbft_consensus_validator_missed_blocks{chain_id="shape-1",validator_address="${ours.hexAddress}"} 3`
        );
        expect(metrics).toMatch(/cometbft_consensus_missing_validators\{chain_id="shape-1"\} 1/);

        sim.control.missSignatures({ mode: 'nil', blocks: 2 });
        await sim.control.produceBlocks(2);
        const nilBlock = (await rpc(sim, '/block')).body.result.block;
        const nilSig = nilBlock.last_commit.signatures[idx];
        expect(nilSig.block_id_flag).toBe(3);
        expect(nilSig.validator_address).toBe(ours.hexAddress);
        expect(typeof nilSig.signature).toBe('string');
        expect(await counter()).toBe(before + 3); // nil counts as signed for x/slashing
        await sim.control.produceBlocks(2);
        expect(sim.chain.missPlans.size).toBe(0);
        expect((await rpc(sim, '/block')).body.result.block.last_commit.signatures[idx].block_id_flag).toBe(2);
    });

    it('oracle counter: raise, set, reset (kujira path)', async () => {
        const path = `/oracle/validators/${sim.chain.ours.valoper}/miss`;
        expectSameShape((await rest(sim, path)).body, fixture('derived-kujira-oracle-miss.json'));
        sim.control.raiseOracleMiss(4);
        sim.control.raiseOracleMiss(2);
        expect((await rest(sim, path)).body).toEqual({ miss_counter: '6' });
        sim.control.setOracleMiss(40);
        expect((await rest(sim, path)).body).toEqual({ miss_counter: '40' });
        sim.control.resetOracleMiss();
        expect((await rest(sim, path)).body).toEqual({ miss_counter: '0' });
        expect((await rest(sim, '/oracle/params')).body).toEqual(fixture('derived-kujira-oracle-params-defaults.json'));
        // Other flavours' routes are not served by a kujira chain.
        expect((await rest(sim, `/umee/oracle/v1/validators/${sim.chain.ours.valoper}/miss`)).status).toBe(501);
    });
});

describe('validator lifecycle', () => {
    let sim: ChainSim;
    beforeEach(async () => {
        sim = await startChainSim({ autoStart: false, signedBlocksWindow: 10, minSignedPerWindow: 0.5 });
    });
    afterEach(() => sim.close());

    const validator = async () =>
        (await rest(sim, `/cosmos/staking/v1beta1/validators/${sim.chain.ours.valoper}`)).body.validator;
    const signing = async () =>
        (await rest(sim, `/cosmos/slashing/v1beta1/signing_infos/${sim.chain.ours.valcons}`)).body.val_signing_info;
    const inSet = async () =>
        (await rpc(sim, '/validators')).body.result.validators.some(
            (v: Json) => v.address === sim.chain.ours.hexAddress
        );

    it('jail, unjail, unbond, tombstone', async () => {
        sim.control.missSignatures({ mode: 'absent', blocks: 2 });
        await sim.control.produceBlocks(3);
        expect((await signing()).missed_blocks_counter).toBe('2');

        sim.control.jail();
        expect(await validator()).toMatchObject({ jailed: true, status: 'BOND_STATUS_UNBONDING' });
        const info = await signing();
        expect(info.missed_blocks_counter).toBe('0');
        expect(info.index_offset).toBe('0');
        expect(Date.parse(info.jailed_until)).toBeGreaterThan(Date.now());
        expect(await inSet()).toBe(false);
        expect((await rpc(sim, '/status')).body.result.validator_info.voting_power).toBe('0');
        await sim.control.produceBlocks(2);
        const sigs = (await rpc(sim, '/block')).body.result.block.last_commit.signatures;
        expect(sigs.map((s: Json) => s.validator_address)).not.toContain(sim.chain.ours.hexAddress);

        sim.control.unjail();
        expect(await validator()).toMatchObject({ jailed: false, status: 'BOND_STATUS_BONDED' });
        expect(await inSet()).toBe(true);
        expect(Number((await signing()).start_height)).toBe(sim.chain.height + 1);

        sim.control.unbond();
        expect((await validator()).status).toBe('BOND_STATUS_UNBONDED');
        const unbonded = await rest(sim, '/cosmos/staking/v1beta1/validators?status=BOND_STATUS_UNBONDED');
        expect(unbonded.body.validators.map((v: Json) => v.operator_address)).toEqual([sim.chain.ours.valoper]);

        sim.control.unjail();
        sim.control.tombstone();
        expect(await signing()).toMatchObject({ tombstoned: true, jailed_until: '9999-12-31T23:59:59Z' });
        expect((await validator()).jailed).toBe(true);
        sim.control.unjail(); // no way back from a tombstone
        expect((await validator()).jailed).toBe(true);
    });

    it('x/slashing jails automatically after too many misses in the window', async () => {
        // window 10, min signed 0.5 → jailed once more than 5 are missed past start_height + 10.
        sim.control.missSignatures({ mode: 'absent' });
        for (let i = 0; i < 20 && !sim.chain.ours.state.jailed; i++) await sim.control.produceBlocks(1);
        expect(await validator()).toMatchObject({ jailed: true, status: 'BOND_STATUS_UNBONDING' });
        expect((await signing()).missed_blocks_counter).toBe('0');
        expect(BigInt((await validator()).tokens)).toBeLessThan(950_000_000_000n);
    });

    it('missed_blocks_counter is a sliding window', async () => {
        sim.control.missSignatures({ mode: 'absent', blocks: 3 });
        await sim.control.produceBlocks(4);
        expect((await signing()).missed_blocks_counter).toBe('3');
        await sim.control.produceBlocks(12); // the misses slide out of the 10-block window
        expect((await signing()).missed_blocks_counter).toBe('0');
    });
});

describe('history pruning', () => {
    it('earliest height moves up; old heights give the pruned error', async () => {
        const sim = await startChainSim({ autoStart: false, historyCap: 10 });
        try {
            await sim.control.produceBlocks(15);
            const s = (await rpc(sim, '/status')).body.result.sync_info;
            expect(Number(s.earliest_block_height)).toBe(sim.chain.height - 9);
            const old = await rpc(sim, '/block?height=1');
            expect(old.status).toBe(500);
            expect(old.body.error.data).toBe(`height 1 is not available, lowest height is ${s.earliest_block_height}`);
        } finally {
            await sim.close();
        }
    });
});

describe('node faults (running clock)', () => {
    let sim: ChainSim;
    beforeEach(async () => {
        sim = await startChainSim({ blockTimeMs: 100, nodes: 2, oracle: 'umee' });
    });
    afterEach(() => sim.close());

    const height = async (node: number) =>
        Number((await rpc(sim, '/status', node)).body.result.sync_info.latest_block_height);

    it('halting the validator node stops its height and makes our votes absent', async () => {
        sim.control.halt(0);
        const stopped = await height(0);
        await sim.control.waitForHeight(sim.chain.height + 4);
        expect(await height(0)).toBe(stopped);
        expect(await height(1)).toBeGreaterThan(stopped + 2); // the sentry follows the chain
        const time = (await rpc(sim, '/status', 0)).body.result.sync_info.latest_block_time;
        expect(Date.now() - Date.parse(time)).toBeGreaterThan(300);
        const info = (await rest(sim, `/cosmos/slashing/v1beta1/signing_infos/${sim.chain.ours.valcons}`, 1)).body;
        expect(Number(info.val_signing_info.missed_blocks_counter)).toBeGreaterThan(0);
        // The sentry's own key is not a validator.
        const sentry = (await rpc(sim, '/status', 1)).body.result.validator_info;
        expect(sentry.voting_power).toBe('0');
        expect(sentry.address).not.toBe(sim.chain.ours.hexAddress);
        sim.control.resume(0);
        expect(await height(0)).toBe(sim.chain.height);
    });

    it('halting the chain stops every node', async () => {
        sim.control.halt();
        const h = sim.chain.height;
        await new Promise((r) => setTimeout(r, 350));
        expect(sim.chain.height).toBe(h);
        expect(await height(1)).toBe(h);
        sim.control.resume();
        await sim.control.waitForHeight(h + 1);
    });

    it('catching up and stale block time', async () => {
        sim.control.catchUp(1, { behindBlocks: 3 });
        const status = (await rpc(sim, '/status', 1)).body.result.sync_info;
        expect(status.catching_up).toBe(true);
        expect(Number(status.latest_block_height)).toBe(sim.chain.height - 3);
        expect((await rest(sim, '/cosmos/base/tendermint/v1beta1/syncing', 1)).body).toEqual({ syncing: true });
        expect(await text(sim.nodes[1]?.metricsUrl ?? '')).toMatch(/cometbft_blocksync_syncing\{[^}]*\} 1/);
        sim.control.clearCatchUp(1);
        expect((await rpc(sim, '/status', 1)).body.result.sync_info.catching_up).toBe(false);

        // A second: a loaded machine may take a few hundred ms to serve the first read.
        sim.control.catchUp(0, { durationMs: 1000 });
        expect((await rpc(sim, '/status', 0)).body.result.sync_info.catching_up).toBe(true);
        await new Promise((r) => setTimeout(r, 1200));
        expect((await rpc(sim, '/status', 0)).body.result.sync_info.catching_up).toBe(false);

        sim.control.staleBlockTime(0, 120);
        const before = await height(0);
        await sim.control.waitForHeight(sim.chain.height + 2);
        const s = (await rpc(sim, '/status', 0)).body.result.sync_info;
        expect(Number(s.latest_block_height)).toBeGreaterThan(before);
        const lag = (Date.now() - Date.parse(s.latest_block_time)) / 1000;
        expect(lag).toBeGreaterThan(119);
        expect(lag).toBeLessThan(135);
    });

    it('slow, 5xx, dropped and malformed answers; resetFaults', async () => {
        const url = `${sim.nodes[0]?.rpcUrl}/status`;
        sim.control.setFault(0, 'rpc', { delayMs: 300 });
        const t0 = Date.now();
        expect((await fetch(url)).status).toBe(200);
        expect(Date.now() - t0).toBeGreaterThanOrEqual(280);

        sim.control.clearFaults(0);
        sim.control.setFault(0, 'rest', { status: 503 });
        expect((await fetch(`${sim.nodes[0]?.restUrl}/cosmos/base/tendermint/v1beta1/syncing`)).status).toBe(503);
        expect((await fetch(url)).status).toBe(200); // other ports unaffected
        expect((await fetch(`${sim.nodes[1]?.restUrl}/cosmos/base/tendermint/v1beta1/syncing`)).status).toBe(200);

        sim.control.setFault(0, 'metrics', { drop: true });
        await expect(fetch(sim.nodes[0]?.metricsUrl ?? '')).rejects.toThrow();

        sim.control.setFault(0, 'rpc', { malformed: 'invalid' });
        const invalid = await fetch(url);
        expect(invalid.status).toBe(200);
        const invalidText = await invalid.text();
        expect(() => JSON.parse(invalidText)).toThrow();
        sim.control.setFault(0, 'rpc', { malformed: 'truncated' });
        const truncated = await (await fetch(url)).text();
        expect(truncated.startsWith('{"jsonrpc":"2.0"')).toBe(true);
        expect(() => JSON.parse(truncated)).toThrow();

        sim.control.setFault(1, 'all', { status: 502 });
        expect((await fetch(sim.nodes[1]?.nodeExporterUrl ?? '')).status).toBe(502);
        sim.control.resetFaults();
        for (const n of sim.nodes) {
            expect((await fetch(`${n.rpcUrl}/status`)).status).toBe(200);
            expect((await fetch(n.metricsUrl)).status).toBe(200);
            expect((await fetch(n.nodeExporterUrl)).status).toBe(200);
        }
    });

    it('umee oracle routes and slash window', async () => {
        const base = '/umee/oracle/v1';
        sim.control.raiseOracleMiss(3);
        expect((await rest(sim, `${base}/validators/${sim.chain.ours.valoper}/miss`)).body).toEqual({
            miss_counter: '3',
        });
        expectSameShape(
            (await rest(sim, `${base}/slash_window`)).body,
            fixture('derived-umee-oracle-slash-window.json')
        );
        expectSameShape((await rest(sim, `${base}/params`)).body, fixture('derived-umee-oracle-params-defaults.json'));
        expect((await rest(sim, `/oracle/validators/${sim.chain.ours.valoper}/miss`)).status).toBe(501);
    });

    it('HTTP control API does the same as the programmatic one', async () => {
        const post = (path: string, body: unknown) =>
            get(`${sim.controlUrl}${path}`, { method: 'POST', body: JSON.stringify(body) });
        const state = await get(`${sim.controlUrl}/`);
        expect(state.body.nodes).toHaveLength(2);
        expect(state.body.validators.find((v: Json) => v.ours).valcons).toBe(sim.chain.ours.valcons);

        expect((await post('/oracle/set', { n: 7 })).status).toBe(200);
        expect(sim.chain.ours.oracleMissCounter).toBe(7);
        expect((await post('/fault', { node: 1, protocol: 'rpc', status: 500 })).status).toBe(200);
        expect((await fetch(`${sim.nodes[1]?.rpcUrl}/status`)).status).toBe(500);
        await post('/faults/reset', {});
        expect((await fetch(`${sim.nodes[1]?.rpcUrl}/status`)).status).toBe(200);
        await post('/miss', { mode: 'absent', blocks: 2 });
        expect(sim.chain.missPlans.get(sim.chain.config.oursIndex)?.mode).toBe('absent');
        await post('/jail', {});
        expect(sim.chain.ours.state.jailed).toBe(true);
        await post('/disk', { node: 0, mountpoint: '/', percent: 91 });
        expect(await text(sim.nodes[0]?.nodeExporterUrl ?? '')).toContain(
            `node_filesystem_avail_bytes{device="/dev/vda1",fstype="ext4",mountpoint="/"} ${goFloat(Math.round(200 * 1024 ** 3 * 0.09))}`
        );
        await post('/halt', { node: 1 });
        expect(sim.nodes[1]?.halted).toBe(true);
        const bad = await post('/miss', { mode: 'sometimes' });
        expect(bad.status).toBe(400);
        expect((await post('/nope', {})).status).toBe(404);
    });
});

describe('prometheus endpoints', () => {
    let sim: ChainSim;
    beforeAll(async () => {
        sim = await startChainSim({ autoStart: false, metricsNamespace: 'tendermint', chainId: 'prom-1' });
    });
    afterAll(() => sim.close());

    it('CometBFT metrics with the tendermint namespace', async () => {
        const res = await fetch(sim.nodes[0]?.metricsUrl ?? '');
        expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
        const body = await res.text();
        expect(body).toContain(`tendermint_consensus_latest_block_height{chain_id="prom-1"} ${sim.chain.height}`);
        expect(body).toContain(`tendermint_consensus_height{chain_id="prom-1"} ${sim.chain.height + 1}`);
        expect(body).toContain(
            `tendermint_consensus_validator_power{chain_id="prom-1",validator_address="${sim.chain.ours.hexAddress}"} 950000`
        );
        expect(body).toContain('tendermint_consensus_fast_syncing{chain_id="prom-1"} 0');
        expect(body).toContain('tendermint_p2p_peers{chain_id="prom-1"} 3');
        expect(body).not.toContain('missed_blocks');
    });

    it('node_exporter: fixture families, sorted labels, pseudo filesystems, bind mount', async () => {
        const res = await fetch(sim.nodes[0]?.nodeExporterUrl ?? '');
        expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
        const body = await res.text();
        const families = (t: string) => new Set([...t.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]));
        const captured = readFileSync(`${FIXTURES}/node-exporter-1.5.0-filesystem-memory.txt`, 'utf8');
        for (const f of families(captured)) expect(families(body)).toContain(f);
        expect(body).toMatch(/^node_load1 \S+$/m);
        expect(body).toContain('mountpoint="/run"');
        expect(body).toContain('mountpoint="/dev/shm"');
        expect(body).toContain('fstype="overlay"');
        const sizes = [
            ...body.matchAll(/^node_filesystem_size_bytes\{device="([^"]+)",fstype="[^"]+",mountpoint="([^"]+)"\}/gm),
        ];
        const keys = sizes.map((m) => `${m[1]}\u0000${m[2]}`);
        expect([...keys].sort()).toEqual(keys); // series sorted by label values
        expect(sizes.filter((m) => m[1] === '/dev/vda1').map((m) => m[2])).toEqual(['/', '/etc/hosts']);
        expect(body).toMatch(/^node_filesystem_size_bytes\{[^}]*mountpoint="\/"\} \d(\.\d+)?e\+\d\d$/m);

        sim.control.setDisk(0, '/var/lib/cosmos', { percent: 97 });
        sim.control.setMemory(0, { percent: 90 });
        const after = await text(sim.nodes[0]?.nodeExporterUrl ?? '');
        const value = (re: RegExp) => Number(after.match(re)?.[1]);
        const avail = value(/^node_filesystem_avail_bytes\{[^}]*mountpoint="\/var\/lib\/cosmos"\} (\S+)$/m);
        const size = value(/^node_filesystem_size_bytes\{[^}]*mountpoint="\/var\/lib\/cosmos"\} (\S+)$/m);
        expect(100 - (avail / size) * 100).toBeCloseTo(97, 5);
        const memAvail = value(/^node_memory_MemAvailable_bytes (\S+)$/m);
        const memTotal = value(/^node_memory_MemTotal_bytes (\S+)$/m);
        expect(100 * (1 - memAvail / memTotal)).toBeCloseTo(90, 5);
        // Disk use by bytes; the bind mount of the same device follows.
        sim.control.setDisk(0, '/', { usedBytes: 100 * 1024 ** 3 });
        const again = await text(sim.nodes[0]?.nodeExporterUrl ?? '');
        const hosts = again.match(/^node_filesystem_avail_bytes\{[^}]*mountpoint="\/etc\/hosts"\} (\S+)$/m)?.[1];
        expect(Number(hosts)).toBe(100 * 1024 ** 3);
    });

    it('node_exporter 1.8 device_error label', async () => {
        const sim18 = await startChainSim({ autoStart: false, nodeExporterDeviceErrorLabel: true });
        try {
            const body = await text(sim18.nodes[0]?.nodeExporterUrl ?? '');
            expect(body).toContain(
                'node_filesystem_readonly{device="/dev/vda1",device_error="",fstype="ext4",mountpoint="/"} 0'
            );
        } finally {
            await sim18.close();
        }
    });
});

describe('chain without oracle', () => {
    it('answers 501 on oracle paths and uses the configured prefix', async () => {
        const sim = await startChainSim({ autoStart: false, bech32Prefix: 'kujira', chainId: 'prefix-1' });
        try {
            expect(sim.chain.ours.valoper.startsWith('kujiravaloper1')).toBe(true);
            expect(sim.chain.ours.valcons.startsWith('kujiravalcons1')).toBe(true);
            expect(sim.chain.ours.account.startsWith('kujira1')).toBe(true);
            const res = await rest(sim, `/oracle/validators/${sim.chain.ours.valoper}/miss`);
            expect(res.status).toBe(501);
            expect(res.body).toEqual({ code: 12, message: 'Not Implemented', details: [] });
        } finally {
            await sim.close();
        }
    });
});
