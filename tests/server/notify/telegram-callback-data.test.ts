import { actionKey, BUTTON_MAX_AGE_MS, signButton, verifyButton } from '../../../server/notify/telegram/callback-data';

/** The Telegram buttons' callback_data is signed, compact, bound to its chat, and expires. */
const key = actionKey('app-secret-one');
const other = actionKey('app-secret-two');
const NOW = Date.UTC(2026, 10, 24, 8, 0, 0);
const data = {
    action: 'ack' as const,
    incidentId: '5b1c0f6e-9a2d-4c3b-8e7f-0123456789ab',
    targetId: 123456789,
    issuedAt: NOW,
};

it('fits Telegram’s 64 bytes and reads back what was signed', () => {
    for (const action of ['ack', 'silence', 'ack-server', 'silence-server'] as const) {
        const raw = signButton(key, '-1001234567890', { ...data, action }) ?? '';
        expect(Buffer.byteLength(raw)).toBeLessThanOrEqual(64);
        expect(verifyButton(key, '-1001234567890', raw, NOW + 60_000)).toEqual({
            ok: true,
            data: { ...data, action },
        });
    }
});

it('refuses data changed, made for another chat, signed with another key, or garbage', () => {
    const raw = signButton(key, '-1001', data) ?? '';
    const [code, incident, monitor, minutes, mac] = raw.split('.');
    const forged = [
        [code, incident, (Number.parseInt(monitor ?? '', 36) + 1).toString(36), minutes, mac].join('.'),
        ['s', incident, monitor, minutes, mac].join('.'),
        'a.x.y.z.0123456789abcdef',
        '',
    ];
    for (const f of forged) expect(verifyButton(key, '-1001', f, NOW)).toEqual({ ok: false, why: 'forged' });
    expect(verifyButton(key, '-1002', raw, NOW)).toEqual({ ok: false, why: 'forged' });
    expect(verifyButton(other, '-1001', raw, NOW)).toEqual({ ok: false, why: 'forged' });
});

it('calls a button older than a week stale', () => {
    const raw = signButton(key, '-1001', data) ?? '';
    expect(verifyButton(key, '-1001', raw, NOW + BUTTON_MAX_AGE_MS).ok).toBe(true);
    expect(verifyButton(key, '-1001', raw, NOW + BUTTON_MAX_AGE_MS + 60_000)).toEqual({ ok: false, why: 'stale' });
});

it('makes no button for an incident id that is not a UUID', () => {
    expect(signButton(key, '-1001', { ...data, incidentId: 'inc-1' })).toBeNull();
});
