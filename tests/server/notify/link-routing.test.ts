import { createWorld, type World } from '../config-fixtures';

/** A configuration's link to a channel carries its routing, set on create and edited with PUT. */
let w: World;
beforeAll(async () => {
    w = await createWorld();
});
afterAll(async () => {
    await w?.t.close();
});

it('routing: omitted reads as docs/spec.md §7, set on create, edited with PUT, bad values named, tenancy kept', async () => {
    const cfg = await w.configuration(w.admin.access);
    const channel = async (name: string) =>
        (
            await w.call('POST', '/api/notification-channels', w.admin.access, {
                name,
                type: 'webhook',
                configuration_object: { url: 'https://example.com/hook', secret: 's3cret' },
                is_enabled: true,
            })
        ).json().id as number;
    const url = `/api/configurations/${cfg}/notification-channels`;
    const plainLink = (
        await w.call('POST', url, w.admin.access, { notification_channel_id: await channel('a') })
    ).json();
    expect(Object.keys(plainLink).sort()).toEqual([
        'configuration_id',
        'id',
        'notification_channel',
        'notification_channel_id',
    ]);
    const routed = await w.call('POST', url, w.admin.access, {
        notification_channel_id: await channel('b'),
        send_recoveries: false,
    });
    expect(routed.json()).toMatchObject({ send_recoveries: false });
    expect(routed.json().send_reminders).toBeUndefined();

    const edited = await w.call('PUT', `${url}/${routed.json().id}`, w.admin.access, {
        min_severity: 'warning',
        send_recoveries: true,
        send_reminders: false,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ min_severity: 'warning', send_reminders: false });
    expect(edited.json().send_recoveries).toBeUndefined();
    const list = (await w.call('GET', url, w.plain.access)).json();
    expect(list[1]).toMatchObject({ min_severity: 'warning', send_reminders: false });

    const bad = await w.call('PUT', `${url}/${routed.json().id}`, w.admin.access, { min_severity: 'loud' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.min_severity).toBe('min_severity must be critical or warning');
    expect((await w.call('PUT', `${url}/${routed.json().id}`, w.plain.access, {})).statusCode).toBe(403);
    expect((await w.call('PUT', `${url}/${routed.json().id}`, w.other.access, {})).statusCode).toBe(404);
});
