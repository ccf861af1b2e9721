import { screen, waitFor, within } from '@testing-library/react';
import type { Configuration } from '../../../common/entities';
import userEvent from '@testing-library/user-event';

import { listParamsOf, type RecordedRequest, storeSession, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';
import { admin, chains, configuration, configurationsApi, monitor, plainUser } from './configurationFixtures';

const healthy = configuration();
const failing = configuration({
    id: 2,
    name: 'Hub',
    chain: 'cosmoshub',
    company: { id: 2, name: 'Globex' },
    company_id: 2,
    monitors: [monitor({ id: 2, status: false }), monitor({ id: 3, status: false }), monitor({ id: 4 })],
});
const warning = configuration({
    id: 3,
    name: 'Juno',
    chain: 'juno',
    monitors: [monitor({ id: 5, last_error: 'slow' })],
});
const disabled = configuration({
    id: 4,
    name: 'Old testnet',
    chain: 'osmosis-testnet',
    is_enabled: false,
    monitors: [monitor({ id: 6, status: false })],
});
const all = [healthy, failing, warning, disabled];
const companies = {
    results: [
        { id: 1, name: 'Acme' },
        { id: 2, name: 'Globex' },
    ],
};

const cardOf = (name: string) => screen.getByRole('article', { name: `Configuration ${name}` });
/** The names on the cards, in the order shown. */
const cardNames = () =>
    screen.queryAllByRole('button', { name: /^Open configuration/ }).map((button) => button.textContent);
/** The list parameters of every GET /api/configurations sent so far. */
const listRequests = (calls: RecordedRequest[]) =>
    calls.filter((c) => c.method === 'GET' && c.path === '/api/configurations').map(listParamsOf);

async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
    await user.click(screen.getByRole('combobox', { name: label }));
    await user.click(await screen.findByRole('option', { name: option }));
}

describe('configuration list', () => {
    beforeEach(() => storeSession());

    it('shows the empty state', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': configurationsApi(() => []),
            'GET /api/companies': { body: companies },
        });
        renderApp('/configurations');
        expect(await screen.findByText('No configurations found')).toBeInTheDocument();
        expect(screen.getByText('Start by adding your first node configuration')).toBeInTheDocument();
        expect(screen.getByRole('heading', { name: 'Node Configurations', level: 1 })).toBeInTheDocument();
    });

    it('shows the empty state when the list cannot be fetched', async () => {
        vi.spyOn(console, 'error').mockImplementation(() => undefined);
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': { status: 500, body: { message: 'boom' } },
            'GET /api/companies': { body: companies },
        });
        renderApp('/configurations');
        expect(await screen.findByText('No configurations found')).toBeInTheDocument();
    });

    it('shows enabled configurations as cards by default, with health, chain and counts', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': configurationsApi(() => all),
            'GET /api/companies': { body: companies },
        });
        renderApp('/configurations');
        const osmosis = await screen.findByRole('heading', { name: 'Osmosis main' });
        expect(osmosis).toBeInTheDocument();
        expect(screen.queryByText('Old testnet')).not.toBeInTheDocument();
        const hubCard = cardOf('Hub');
        expect(within(hubCard).getByText('Error (2)')).toBeInTheDocument();
        expect(within(hubCard).getByText('cosmoshub')).toBeInTheDocument();
        expect(within(hubCard).getByText('Servers: 1 · Monitors: 3')).toBeInTheDocument();
        expect(within(hubCard).getByText('Active')).toBeInTheDocument();
        expect(within(cardOf('Juno')).getByText('Warning (1)')).toBeInTheDocument();
        expect(within(cardOf('Osmosis main')).getByText('Healthy')).toBeInTheDocument();
        expect(screen.getByRole('button', { name: 'Add Configuration' })).toBeInTheDocument();
        expect(screen.getByRole('button', { name: 'Edit configuration Hub' })).toBeInTheDocument();
        expect(screen.getByRole('button', { name: 'Delete configuration Hub' })).toBeInTheDocument();
    });

    it('says nothing is watched on a configuration without monitors, beside a Healthy that is not green', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': configurationsApi(() => [{ ...healthy, monitors: [] }, warning]),
            'GET /api/companies': { body: companies },
        });
        renderApp('/configurations');
        await screen.findByRole('button', { name: `Open configuration ${healthy.name}` });
        const card = cardOf(healthy.name);
        expect(within(card).getByText('Nothing is watched: no monitors')).toBeInTheDocument();
        expect(within(card).getByText('Healthy').closest('.MuiChip-root')).not.toHaveClass('MuiChip-colorSuccess');
        expect(within(cardOf('Juno')).queryByText('Nothing is watched: no monitors')).not.toBeInTheDocument();
    });

    it('shows no health badge on a disabled configuration', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': configurationsApi(() => all),
            'GET /api/companies': { body: companies },
        });
        const user = userEvent.setup();
        renderApp('/configurations');
        await screen.findByRole('heading', { name: 'Osmosis main' });
        // Each choice asks the server again: the cards change once its answer is in.
        await choose(user, 'Enabled', 'Disabled');
        await waitFor(() => expect(screen.queryByRole('heading', { name: 'Osmosis main' })).not.toBeInTheDocument());
        const card = cardOf('Old testnet');
        expect(within(card).getByText('Inactive')).toBeInTheDocument();
        expect(within(card).queryByText(/Error|Warning|Healthy/)).not.toBeInTheDocument();
        await choose(user, 'Enabled', 'All');
        await waitFor(() => expect(screen.getAllByRole('button', { name: /^Open configuration/ })).toHaveLength(4));
    });

    it('sends search (once typing settles), status, company and enabled to the server as the list filter', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': configurationsApi(() => all),
            'GET /api/companies': { body: companies },
        });
        const lists = () => listRequests(calls);
        const user = userEvent.setup();
        renderApp('/configurations');
        await screen.findByRole('heading', { name: 'Osmosis main' });
        expect(lists()).toEqual([{ sort: ['name', 'ASC'], range: [0, 23], filter: { is_enabled: true } }]);

        await user.type(screen.getByLabelText('Search'), 'COSMOS');
        await waitFor(() => expect(cardNames()).toEqual(['Hub']));
        // One request for the whole word, not one per key.
        expect(lists().slice(1)).toEqual([
            { sort: ['name', 'ASC'], range: [0, 23], filter: { is_enabled: true, q: 'COSMOS' } },
        ]);
        await user.clear(screen.getByLabelText('Search'));
        await waitFor(() => expect(cardNames()).toEqual(['Hub', 'Juno', 'Osmosis main']));
        expect(lists().at(-1)?.filter).toEqual({ is_enabled: true });

        await choose(user, 'Status', 'Warning');
        await waitFor(() => expect(cardNames()).toEqual(['Juno']));
        expect(lists().at(-1)?.filter).toEqual({ is_enabled: true, status: 'warning' });
        await choose(user, 'Status', 'Error');
        await waitFor(() => expect(cardNames()).toEqual(['Hub']));
        await choose(user, 'Status', 'Healthy');
        await waitFor(() => expect(cardNames()).toEqual(['Osmosis main']));
        await choose(user, 'Status', 'All Status');
        await waitFor(() => expect(cardNames()).toHaveLength(3));
        expect(lists().at(-1)?.filter).toEqual({ is_enabled: true });

        await choose(user, 'Company', 'Globex');
        await waitFor(() => expect(cardNames()).toEqual(['Hub']));
        expect(lists().at(-1)?.filter).toEqual({ is_enabled: true, company_id: 2 });
        await choose(user, 'Company', 'All Companies');
        await choose(user, 'Enabled', 'All');
        await waitFor(() => expect(cardNames()).toEqual(['Hub', 'Juno', 'Old testnet', 'Osmosis main']));
        expect(lists().at(-1)?.filter).toEqual({});

        await user.type(screen.getByLabelText('Search'), 'nothing-like-this');
        expect(await screen.findByText('No configurations found')).toBeInTheDocument();
        expect(lists().at(-1)?.filter).toEqual({ q: 'nothing-like-this' });
    });

    it('keeps a status chosen while the search is still settling', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': configurationsApi(() => all),
            'GET /api/companies': { body: companies },
        });
        const user = userEvent.setup();
        renderApp('/configurations');
        await screen.findByRole('heading', { name: 'Osmosis main' });
        await user.type(screen.getByLabelText('Search'), 'o');
        await choose(user, 'Status', 'Error');
        await waitFor(() => expect(cardNames()).toEqual(['Hub']));
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect(listRequests(calls).at(-1)?.filter).toEqual({ is_enabled: true, q: 'o', status: 'error' });
        expect(cardNames()).toEqual(['Hub']);
        expect(screen.getByLabelText('Search')).toHaveValue('o');
    });

    it('pages through more configurations than one page holds, 24 at a time', async () => {
        const many = Array.from({ length: 30 }, (_, i) =>
            configuration({ id: i + 1, name: `Node ${String(i + 1).padStart(2, '0')}`, chain: 'osmosis' })
        );
        const { calls } = stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/configurations': configurationsApi(() => many),
        });
        const user = userEvent.setup();
        renderApp('/configurations');
        await screen.findByRole('heading', { name: 'Node 01' });
        expect(cardNames()).toHaveLength(24);
        expect(cardNames().at(-1)).toBe('Node 24');
        expect(screen.getByText('1-24 of 30')).toBeInTheDocument();
        // The paged rows still carry servers and monitors: counts and badge show.
        expect(within(cardOf('Node 24')).getByText('Servers: 1 · Monitors: 1')).toBeInTheDocument();
        expect(within(cardOf('Node 24')).getByText('Healthy')).toBeInTheDocument();

        vi.mocked(window.scrollTo).mockClear();
        await user.click(screen.getByRole('button', { name: 'Go to next page' }));
        await screen.findByRole('heading', { name: 'Node 30' });
        // The pagination sits below the grid: the new page is shown from its top.
        expect(window.scrollTo).toHaveBeenCalledWith(0, 0);
        expect(cardNames()).toEqual(['Node 25', 'Node 26', 'Node 27', 'Node 28', 'Node 29', 'Node 30']);
        expect(screen.getByText('25-30 of 30')).toBeInTheDocument();
        expect(listRequests(calls).at(-1)).toEqual({
            sort: ['name', 'ASC'],
            range: [24, 47],
            filter: { is_enabled: true },
        });

        // A new filter starts again from the first page.
        await user.type(screen.getByLabelText('Search'), 'node 1');
        await waitFor(() => expect(cardNames()).toHaveLength(10));
        expect(listRequests(calls).at(-1)).toEqual({
            sort: ['name', 'ASC'],
            range: [0, 23],
            filter: { is_enabled: true, q: 'node 1' },
        });
        expect(screen.queryByRole('button', { name: 'Go to next page' })).not.toBeInTheDocument();
    });

    it('opens the detail when a card is clicked', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': configurationsApi(() => all),
            'GET /api/companies': { body: companies },
            'GET /api/configurations/2': { body: failing },
            'GET /api/configurations/2/servers': { body: failing.servers },
            'GET /api/configurations/2/monitors': { body: failing.monitors },
            'GET /api/configurations/2/notification-channels': { body: [] },
            'GET /api/notification-channels': { body: [] },
        });
        const user = userEvent.setup();
        renderApp('/configurations');
        await screen.findByRole('heading', { name: 'Hub' });
        await user.click(screen.getByRole('button', { name: 'Open configuration Hub' }));
        expect(await screen.findByRole('heading', { name: 'Hub', level: 1 })).toBeInTheDocument();
        expect(await screen.findByText('Created At:')).toBeInTheDocument();
    });

    it('hides add, edit, delete and the company filter from a plain user', async () => {
        stubApi({
            'GET /api/users/me': { body: plainUser },
            'GET /api/configurations': configurationsApi(() => all),
        });
        renderApp('/configurations');
        await screen.findByRole('heading', { name: 'Osmosis main' });
        expect(screen.queryByRole('button', { name: 'Add Configuration' })).not.toBeInTheDocument();
        expect(screen.queryByRole('button', { name: /^Edit configuration/ })).not.toBeInTheDocument();
        expect(screen.queryByRole('button', { name: /^Delete configuration/ })).not.toBeInTheDocument();
        expect(screen.queryByRole('combobox', { name: 'Company' })).not.toBeInTheDocument();
        expect(screen.getByRole('combobox', { name: 'Status' })).toBeInTheDocument();
    });

    it("requires name and chain: toasts 'Please fill in all required fields' and sends nothing", async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/configurations': configurationsApi(() => []),
            'GET /api/chains': { body: chains },
        });
        const user = userEvent.setup();
        renderApp('/configurations');
        await user.click(await screen.findByRole('button', { name: 'Add Configuration' }));
        const dialog = await screen.findByRole('dialog');
        expect(within(dialog).queryByLabelText('Company')).not.toBeInTheDocument();
        await user.type(within(dialog).getByLabelText('Name'), 'Hub');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Please fill in all required fields')).toBeInTheDocument();
        expect(calls.some((c) => c.method === 'POST')).toBe(false);
    });

    it('creates a configuration with a chain from the directory (company admin: no company_id)', async () => {
        let rows: Configuration[] = [];
        const { calls } = stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/configurations': configurationsApi(() => rows),
            'GET /api/chains': { body: chains },
            'POST /api/configurations': (request) => {
                rows = [configuration({ ...(request.body as object), id: 7, monitors: [], servers: [] })];
                return { status: 201, body: rows[0] };
            },
        });
        const user = userEvent.setup();
        renderApp('/configurations');
        await user.click(await screen.findByRole('button', { name: 'Add Configuration' }));
        const dialog = await screen.findByRole('dialog');
        expect(within(dialog).getByRole('switch', { name: 'Enabled' })).toBeChecked();
        await user.type(within(dialog).getByLabelText('Name'), '  Cosmos Hub ');
        await user.type(within(dialog).getByRole('combobox', { name: 'Chain' }), 'cosmos');
        await user.click(await screen.findByRole('option', { name: /cosmoshub/ }));
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Configuration created successfully')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
            name: 'Cosmos Hub',
            chain: 'cosmoshub',
            is_enabled: true,
        });
        await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
        expect(await screen.findByRole('heading', { name: 'Cosmos Hub' })).toBeInTheDocument();
    });

    it('sends the chain endpoints entered in the form', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/configurations': configurationsApi(() => []),
            'GET /api/chains': { body: chains },
            'POST /api/configurations': (request) => ({
                status: 201,
                body: configuration({ ...(request.body as object), id: 8, monitors: [], servers: [] }),
            }),
        });
        const user = userEvent.setup();
        renderApp('/configurations');
        await user.click(await screen.findByRole('button', { name: 'Add Configuration' }, { timeout: 15_000 }));
        const dialog = await screen.findByRole('dialog');
        await user.type(within(dialog).getByLabelText('Name'), 'Hub');
        await user.type(within(dialog).getByRole('combobox', { name: 'Chain' }), 'mychain');
        await user.click(within(dialog).getByRole('button', { name: 'New chain endpoint' }));
        await user.type(within(dialog).getByRole('textbox', { name: /^Address/ }), 'https://rpc.example.com');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Configuration created successfully')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
            name: 'Hub',
            chain: 'mychain',
            is_enabled: true,
            chain_endpoints: [{ type: 'rpc', address: 'https://rpc.example.com' }],
        });
    });

    it('accepts a chain the directory does not know, saying so under the field', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': configurationsApi(() => []),
            'GET /api/companies': { body: companies },
            'GET /api/chains': { body: chains },
        });
        const user = userEvent.setup();
        renderApp('/configurations');
        await user.click(await screen.findByRole('button', { name: 'Add Configuration' }, { timeout: 15_000 }));
        const dialog = await screen.findByRole('dialog');
        const chain = within(dialog).getByRole('combobox', { name: 'Chain' });
        await user.type(chain, 'mychain');
        expect(await within(dialog).findByText(/^Not in the chain directory/)).toBeInTheDocument();
        await user.clear(chain);
        await user.type(chain, 'cosmoshub');
        await waitFor(() => expect(within(dialog).queryByText(/^Not in the chain directory/)).not.toBeInTheDocument());
    });

    it('asks a super admin without a company to pick one, and sends nothing until then', async () => {
        const root = { ...superAdmin, company: null, company_id: null };
        const { calls } = stubApi({
            'GET /api/users/me': { body: root },
            'GET /api/configurations': configurationsApi(() => []),
            'GET /api/companies': { body: companies },
            'GET /api/chains': { body: chains },
        });
        const user = userEvent.setup();
        renderApp('/configurations');
        await user.click(await screen.findByRole('button', { name: 'Add Configuration' }, { timeout: 15_000 }));
        const dialog = await screen.findByRole('dialog');
        await user.type(within(dialog).getByLabelText('Name'), 'Private');
        await user.type(within(dialog).getByRole('combobox', { name: 'Chain' }), 'mychain');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await within(dialog).findByText('Please select a company')).toBeInTheDocument();
        expect(calls.some((c) => c.method === 'POST')).toBe(false);
    });

    it('lets a super admin pick the company, accepts a free-text chain, and shows a failed create', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': configurationsApi(() => []),
            'GET /api/companies': { body: companies },
            'GET /api/chains': { body: chains },
            'POST /api/configurations': {
                status: 400,
                body: { message: 'Invalid', errors: { name: 'Name already used' } },
            },
        });
        const user = userEvent.setup();
        renderApp('/configurations');
        await user.click(await screen.findByRole('button', { name: 'Add Configuration' }));
        const dialog = await screen.findByRole('dialog');
        await user.type(within(dialog).getByLabelText('Name'), 'Private');
        await user.type(within(dialog).getByRole('combobox', { name: 'Chain' }), 'mychain');
        await user.click(within(dialog).getByRole('combobox', { name: 'Company' }));
        await user.click(await screen.findByRole('option', { name: 'Globex' }));
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Failed to create configuration: Invalid')).toBeInTheDocument();
        expect(await within(dialog).findByText('Name already used')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
            name: 'Private',
            chain: 'mychain',
            is_enabled: true,
            company_id: 2,
        });
    });

    it('edits a configuration, and reports a failed update', async () => {
        let fail = false;
        let rows = [healthy];
        const { calls } = stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/configurations': configurationsApi(() => rows),
            'GET /api/chains': { body: chains },
            'PUT /api/configurations/1': () => {
                if (fail) return { status: 500, body: { message: 'boom' } };
                rows = [{ ...healthy, name: 'Renamed' }];
                return { body: rows[0] };
            },
        });
        const user = userEvent.setup();
        renderApp('/configurations');
        await user.click(await screen.findByRole('button', { name: 'Edit configuration Osmosis main' }));
        const dialog = await screen.findByRole('dialog');
        expect(within(dialog).getByRole('combobox', { name: 'Chain' })).toHaveValue('osmosis');
        await user.clear(within(dialog).getByLabelText('Name'));
        await user.type(within(dialog).getByLabelText('Name'), 'Renamed');
        await user.click(within(dialog).getByRole('button', { name: 'Save' }));
        expect(await screen.findByText('Configuration updated successfully')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
            name: 'Renamed',
            chain: 'osmosis',
            is_enabled: true,
        });

        // The list is asked again and shows the new name.
        expect(await screen.findByRole('heading', { name: 'Renamed' })).toBeInTheDocument();

        fail = true;
        await user.click(await screen.findByRole('button', { name: 'Edit configuration Renamed' }));
        await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Save' }));
        expect(await screen.findByText('Failed to update configuration: boom')).toBeInTheDocument();
    });

    it('deletes after confirmation, and reports a failed delete', async () => {
        let rows = [healthy, failing];
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': configurationsApi(() => rows),
            'GET /api/companies': { body: companies },
            'DELETE /api/configurations/1': () => {
                rows = [failing];
                return { body: healthy };
            },
            'DELETE /api/configurations/2': { status: 409, body: { message: 'in use' } },
        });
        const user = userEvent.setup();
        renderApp('/configurations');
        await user.click(await screen.findByRole('button', { name: 'Delete configuration Osmosis main' }));
        expect(
            await screen.findByText(
                'Are you sure you want to delete the configuration "Osmosis main"? This action cannot be undone.'
            )
        ).toBeInTheDocument();
        await user.click(screen.getByRole('button', { name: 'Delete' }));
        expect(await screen.findByText('Configuration deleted successfully')).toBeInTheDocument();
        await waitFor(() => expect(screen.queryByRole('heading', { name: 'Osmosis main' })).not.toBeInTheDocument());

        await user.click(await screen.findByRole('button', { name: 'Delete configuration Hub' }));
        await user.click(await screen.findByRole('button', { name: 'Delete' }));
        expect(await screen.findByText('Failed to delete configuration')).toBeInTheDocument();
    });
});
