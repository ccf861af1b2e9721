import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { HELPER_TEXTS } from '../../../common/monitor-types';
import { settingsOf, storedSettings, toFormErrors } from '../../../src/resources/monitors/monitorForm';
import { storeSession, stubApi } from '../fakeApi';
import { renderApp } from '../renderApp';
import { admin, configuration, monitor, server } from './configurationFixtures';

const valoper = 'osmovaloper1clpqr4nrk4khgkxj78fcwwh6dl3uw4ep88n0y4';
const signMiss = monitor({
    id: 8,
    name: 'signing',
    type: 'signMissCheck',
    configuration_object: JSON.stringify({ miss_tolerance: 25, valoper_address: valoper }),
});
const config = configuration({ servers: [server()], monitors: [signMiss] });

function setup(overrides: Parameters<typeof stubApi>[0] = {}) {
    storeSession();
    const api = stubApi({
        'GET /api/users/me': { body: admin },
        'GET /api/configurations/1': { body: config },
        'GET /api/configurations/1/servers': { body: config.servers },
        'GET /api/configurations/1/monitors': { body: config.monitors },
        'GET /api/configurations/1/notification-channels': { body: [] },
        'GET /api/notification-channels': { body: [] },
        ...overrides,
    });
    const user = userEvent.setup();
    renderApp('/configurations/1');
    return { ...api, user };
}

async function openAdd(user: ReturnType<typeof userEvent.setup>) {
    await user.click(await screen.findByRole('button', { name: 'Add Monitor' }));
    return screen.findByRole('dialog');
}

async function pick(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, label: string, option: string) {
    await user.click(within(dialog).getByRole('combobox', { name: label }));
    await user.click(await screen.findByRole('option', { name: option }));
}

describe('monitor dialog', () => {
    it("asks for a type: 'Please select a type!' and nothing is sent", async () => {
        const { user, calls } = setup();
        const dialog = await openAdd(user);
        expect(within(dialog).getByText('Add Monitor')).toBeInTheDocument();
        await user.type(within(dialog).getByLabelText(/^Name/), 'new monitor');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Please select a type!')).toBeInTheDocument();
        expect(calls.some((c) => c.method === 'POST')).toBe(false);
    });

    it("asks for a type before the name: 'Please select a type!' on an empty form", async () => {
        const { user, calls } = setup();
        const dialog = await openAdd(user);
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Please select a type!')).toBeInTheDocument();
        expect(within(dialog).queryByText('Required')).not.toBeInTheDocument();
        expect(calls.some((c) => c.method === 'POST')).toBe(false);
    });

    it("asks for a server before the name: 'Please select a server!' with the name still empty", async () => {
        const { user, calls } = setup();
        const dialog = await openAdd(user);
        await pick(user, dialog, 'Type', 'Node Exporter Disk Space');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Please select a server!')).toBeInTheDocument();
        expect(calls.some((c) => c.method === 'POST')).toBe(false);
    });

    it("asks for a server for a block check: 'Please select a server!'", async () => {
        const { user, calls } = setup();
        const dialog = await openAdd(user);
        await pick(user, dialog, 'Type', 'Block Check');
        await user.type(within(dialog).getByLabelText(/^Name/), 'blocks');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Please select a server!')).toBeInTheDocument();
        expect(calls.some((c) => c.method === 'POST')).toBe(false);
    });

    it('marks the name as required', async () => {
        const { user, calls } = setup();
        const dialog = await openAdd(user);
        await pick(user, dialog, 'Type', 'URL Check');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await within(dialog).findByText('Required')).toBeInTheDocument();
        expect(calls.some((c) => c.method === 'POST')).toBe(false);
    });

    it('shows the defaults, helper texts and bounds of each type', async () => {
        const { user } = setup();
        const dialog = await openAdd(user);
        await pick(user, dialog, 'Type', 'Node Exporter Disk Space');
        const threshold = within(dialog).getByLabelText('Threshold (%)');
        expect(threshold).toHaveValue(80);
        expect(threshold).toHaveAttribute('min', '0');
        expect(threshold).toHaveAttribute('max', '100');
        expect(within(dialog).getByLabelText('Alert Sleep Duration (minutes)')).toHaveValue(30);
        expect(within(dialog).getByLabelText('Check Interval (seconds)')).toHaveValue(60);
        expect(within(dialog).getByText(HELPER_TEXTS.threshold)).toBeInTheDocument();
        expect(within(dialog).getByText(HELPER_TEXTS.alert_sleep_duration_minutes)).toBeInTheDocument();
        expect(within(dialog).getByText(HELPER_TEXTS.check_interval_seconds)).toBeInTheDocument();

        await pick(user, dialog, 'Type', 'Block Check');
        expect(within(dialog).getByLabelText('Miss Tolerance')).toHaveValue(10);
        expect(within(dialog).getByLabelText('Miss Tolerance Period (seconds)')).toHaveValue(30);
        expect(within(dialog).getByLabelText('Sleep Duration (seconds)')).toHaveValue(10);
        expect(within(dialog).getByLabelText('Alert Sleep Duration (minutes)')).toHaveValue(10);
        expect(within(dialog).getByText(HELPER_TEXTS.miss_tolerance)).toBeInTheDocument();
        expect(within(dialog).getByText(HELPER_TEXTS.miss_tolerance_period_seconds)).toBeInTheDocument();
        expect(within(dialog).getByText(HELPER_TEXTS.sleep_duration_seconds)).toBeInTheDocument();
        expect(within(dialog).queryByLabelText('Threshold (%)')).not.toBeInTheDocument();
        // The tolerance counts polls: the form says what stall time the two settings amount to, as they change.
        expect(
            within(dialog).getByText(
                'Counts polls without a new block: 10 polls × 10 s = alert after ~100 s without a new block'
            )
        ).toBeInTheDocument();
        await user.clear(within(dialog).getByLabelText('Miss Tolerance'));
        await user.type(within(dialog).getByLabelText('Miss Tolerance'), '2');
        await user.clear(within(dialog).getByLabelText('Sleep Duration (seconds)'));
        await user.type(within(dialog).getByLabelText('Sleep Duration (seconds)'), '5');
        expect(
            await within(dialog).findByText(
                'Counts polls without a new block: 2 polls × 5 s = alert after ~10 s without a new block'
            )
        ).toBeInTheDocument();

        await pick(user, dialog, 'Type', 'Price Feeder Miss Count');
        expect(within(dialog).getByLabelText('Miss Tolerance')).toHaveValue(100);
        expect(within(dialog).getByLabelText('Miss Tolerance Period (seconds)')).toHaveValue(3600);
        expect(within(dialog).getByLabelText('Alert Sleep Duration (minutes)')).toHaveValue(60);
        expect(within(dialog).getByLabelText('Validator Operator Address')).toHaveValue('');

        await pick(user, dialog, 'Type', 'URL Check');
        expect(within(dialog).getByLabelText('Allowed Attempts')).toHaveValue(3);
    });

    it('creates a disk-space monitor with configuration_object as a JSON string', async () => {
        const { user, calls } = setup({
            'POST /api/monitors': { status: 201, body: monitor({ id: 20, type: 'nodeExporterDiskSpace' }) },
        });
        const dialog = await openAdd(user);
        await pick(user, dialog, 'Type', 'Node Exporter Disk Space');
        await user.type(within(dialog).getByLabelText(/^Name/), ' disk ');
        await pick(user, dialog, 'Server', 'node-1');
        const threshold = within(dialog).getByLabelText('Threshold (%)');
        await user.clear(threshold);
        await user.type(threshold, '90');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Added monitor successfully')).toBeInTheDocument();
        const body = calls.find((c) => c.method === 'POST')?.body as Record<string, unknown>;
        expect(body).toEqual({
            name: 'disk',
            is_enabled: true,
            configuration_id: 1,
            server_id: 10,
            type: 'nodeExporterDiskSpace',
            configuration_object: expect.any(String),
            locations: null,
            confirm: 1,
        });
        expect(JSON.parse(body.configuration_object as string)).toEqual({
            threshold: 90,
            alert_sleep_duration_minutes: 30,
            check_interval_seconds: 60,
        });
        await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });

    it('shows the warning the server answers with a saved price feeder monitor, beside the success toast', async () => {
        const warning =
            'No oracle miss-counter path is known for chain cosmoshub (known: umee): set oracle_path on the monitor, or it will stay in Error';
        const { user, calls } = setup({
            'POST /api/monitors': {
                status: 201,
                body: { ...monitor({ id: 21, type: 'priceFeederMissCount' }), warnings: [warning] },
            },
        });
        const dialog = await openAdd(user);
        await pick(user, dialog, 'Type', 'Price Feeder Miss Count');
        await user.type(within(dialog).getByLabelText(/^Name/), 'oracle');
        await pick(user, dialog, 'Server', 'node-1');
        await user.type(within(dialog).getByLabelText(/Validator Operator Address/), valoper);
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Added monitor successfully')).toBeInTheDocument();
        expect(await screen.findByText(warning)).toBeInTheDocument();
        expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
        await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });

    it("creates a URL check with one Name field, the monitor's name going into its settings", async () => {
        const { user, calls } = setup({
            'POST /api/monitors': { status: 201, body: monitor({ id: 21, type: 'urlCheck' }) },
        });
        const dialog = await openAdd(user);
        await pick(user, dialog, 'Type', 'URL Check');
        expect(within(dialog).getAllByLabelText(/^Name/)).toHaveLength(1);
        await user.type(within(dialog).getByLabelText(/^Name/), 'rpc');
        await user.type(within(dialog).getByLabelText(/^Address/), 'http://10.0.0.1:26657');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Added monitor successfully')).toBeInTheDocument();
        const body = calls.find((c) => c.method === 'POST')?.body as Record<string, unknown>;
        expect(body).toMatchObject({ name: 'rpc', type: 'urlCheck', server_id: null });
        expect(JSON.parse(body.configuration_object as string)).toEqual({
            name: 'rpc',
            address: 'http://10.0.0.1:26657',
            allowed_attempts: 3,
        });
    });

    it('offers the validator-duty types with their defaults and a helper text for each setting', async () => {
        const { user } = setup();
        const dialog = await openAdd(user);
        await pick(user, dialog, 'Type', 'Slashing Window (Jail Budget)');
        expect(within(dialog).getByLabelText('Warning (% of jail budget)')).toHaveValue(25);
        expect(within(dialog).getByLabelText('Error (% of jail budget)')).toHaveValue(50);
        expect(within(dialog).getByLabelText('Sleep Duration (seconds)')).toHaveValue(30);
        expect(within(dialog).getByLabelText('Alert Sleep Duration (minutes)')).toHaveValue(30);
        expect(within(dialog).getByText(HELPER_TEXTS.warning_percent)).toBeInTheDocument();
        expect(within(dialog).getByText(HELPER_TEXTS.error_percent)).toBeInTheDocument();
        expect(within(dialog).getByText('The bech32 valoper address of the validator')).toBeInTheDocument();

        await pick(user, dialog, 'Type', 'Governance Vote');
        expect(within(dialog).getByLabelText('Warning Hours Before End')).toHaveValue(72);
        expect(within(dialog).getByLabelText('Error Hours Before End')).toHaveValue(24);
        expect(within(dialog).getByLabelText('Sleep Duration (seconds)')).toHaveValue(300);
        expect(within(dialog).getByLabelText('Alert Sleep Duration (minutes)')).toHaveValue(360);
        expect(within(dialog).getByText(HELPER_TEXTS.warning_hours_before_end)).toBeInTheDocument();
        expect(within(dialog).getByText(HELPER_TEXTS.error_hours_before_end)).toBeInTheDocument();

        await pick(user, dialog, 'Type', 'Upgrade Watch');
        expect(within(dialog).getByLabelText('Sleep Duration (seconds)')).toHaveValue(60);
        expect(within(dialog).getByLabelText('Alert Sleep Duration (minutes)')).toHaveValue(30);
        expect(within(dialog).getByLabelText('Grace (minutes)')).toHaveValue(30);
        expect(within(dialog).getByText(HELPER_TEXTS.grace_minutes)).toBeInTheDocument();
        expect(within(dialog).getByText(HELPER_TEXTS.sleep_duration_seconds)).toBeInTheDocument();
        expect(within(dialog).getByText(HELPER_TEXTS.alert_sleep_duration_minutes)).toBeInTheDocument();

        await pick(user, dialog, 'Type', 'Validator Out Of Active Set');
        expect(within(dialog).getByLabelText('Rank Warning Margin (seats)')).toHaveValue(null);
        expect(within(dialog).getByText(HELPER_TEXTS.rank_warning_margin)).toBeInTheDocument();
    });

    it('shows server field errors under the matching setting and the failure inside the dialog', async () => {
        const { user } = setup({
            'POST /api/monitors': {
                status: 400,
                body: {
                    message: 'Invalid monitor',
                    errors: { valoper_address: 'Validator Operator Address must be a bech32 valoper address' },
                },
            },
        });
        const dialog = await openAdd(user);
        await pick(user, dialog, 'Type', 'Validator Out Of Active Set');
        await user.type(within(dialog).getByLabelText(/^Name/), 'active set');
        await pick(user, dialog, 'Server', 'node-1');
        await user.type(within(dialog).getByLabelText('Validator Operator Address'), 'nope');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to add monitor: Invalid monitor');
        const field = within(dialog).getByLabelText('Validator Operator Address');
        expect(
            await within(dialog).findByText('Validator Operator Address must be a bech32 valoper address')
        ).toBeInTheDocument();
        expect(field).toHaveAttribute('aria-invalid', 'true');
    });

    it('sends the locations and the confirmation count typed in, and every location when left empty', async () => {
        const { user, calls } = setup({ 'PUT /api/monitors/8': { body: signMiss } });
        await user.click(await screen.findByRole('button', { name: 'Edit monitor signing' }));
        const dialog = await screen.findByRole('dialog');
        expect(within(dialog).getByLabelText('Locations')).toHaveValue('');
        expect(within(dialog).getByLabelText('Confirm')).toHaveValue(1);
        await user.type(within(dialog).getByLabelText('Locations'), 'fra-1, sgp-1 local');
        const confirm = within(dialog).getByLabelText('Confirm');
        await user.clear(confirm);
        await user.type(confirm, '2');
        await user.click(within(dialog).getByRole('button', { name: 'Save' }));
        expect(await screen.findByText('Updated monitor successfully')).toBeInTheDocument();
        const body = calls.find((c) => c.method === 'PUT')?.body as Record<string, unknown>;
        expect(body).toMatchObject({ locations: ['fra-1', 'sgp-1', 'local'], confirm: 2 });
    });

    it('prefills from configuration_object when editing and sends the id', async () => {
        let fail = false;
        const { user, calls } = setup({
            'PUT /api/monitors/8': () => (fail ? { status: 500, body: { message: 'boom' } } : { body: signMiss }),
        });
        await user.click(await screen.findByRole('button', { name: 'Edit monitor signing' }));
        const dialog = await screen.findByRole('dialog');
        expect(within(dialog).getByText('Edit Monitor')).toBeInTheDocument();
        expect(within(dialog).getByLabelText(/^Name/)).toHaveValue('signing');
        expect(within(dialog).getByLabelText('Miss Tolerance')).toHaveValue(25);
        expect(within(dialog).getByLabelText('Miss Tolerance Period (seconds)')).toHaveValue(100);
        expect(within(dialog).getByLabelText('Validator Operator Address')).toHaveValue(valoper);
        await user.click(within(dialog).getByRole('button', { name: 'Save' }));
        expect(await screen.findByText('Updated monitor successfully')).toBeInTheDocument();
        const body = calls.find((c) => c.method === 'PUT')?.body as Record<string, unknown>;
        expect(body).toMatchObject({ id: 8, name: 'signing', type: 'signMissCheck', server_id: 10 });
        expect(JSON.parse(body.configuration_object as string)).toEqual({
            miss_tolerance: 25,
            miss_tolerance_period_seconds: 100,
            sleep_duration_seconds: 5,
            alert_sleep_duration_minutes: 1,
            valoper_address: valoper,
        });

        fail = true;
        await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
        await user.click(screen.getByRole('button', { name: 'Edit monitor signing' }));
        await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Save' }));
        expect(await screen.findByText('Failed to update monitor: boom')).toBeInTheDocument();
    });
});

describe('monitor form helpers', () => {
    it('reads stored settings over the defaults, tolerating bad JSON', () => {
        expect(storedSettings('urlCheck', 'not json')).toEqual({ allowed_attempts: 3 });
        expect(storedSettings('blockCheck', '{"miss_tolerance":3}')).toMatchObject({
            miss_tolerance: 3,
            sleep_duration_seconds: 10,
        });
    });

    it('keeps known settings only, numbers as numbers, empty values left out', () => {
        expect(settingsOf('urlCheck', { address: ' http://x ', allowed_attempts: '5', name: '', extra: 1 })).toEqual({
            address: 'http://x',
            allowed_attempts: 5,
        });
    });

    it('places setting errors under the setting and leaves unknown keys out', () => {
        expect(
            toFormErrors({ name: 'Name is required', threshold: 'too big', other: 'x' }, 'nodeExporterDiskSpace')
        ).toEqual({
            name: 'Name is required',
            settings: { nodeExporterDiskSpace: { threshold: 'too big' } },
        });
    });
});
