import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { storeSession, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';
import { admin, configuration, configurationsApi, plainUser } from './configurationFixtures';

const DOCUMENT = 'version: 1\nconfigurations:\n  - name: Osmosis main\n    chain: osmosis\n';
const plan = (dryRun: boolean) => ({
    dry_run: dryRun,
    applied: !dryRun,
    summary: { create: 1, update: 1, delete: 0, unchanged: 2 },
    items: [
        {
            action: 'update',
            kind: 'server',
            path: 'configurations[0].servers[0]',
            name: 'validator-1',
            fields: ['address'],
        },
        { action: 'create', kind: 'monitor', path: 'configurations[0].servers[0].monitors[1]', name: 'Disk' },
        { action: 'unchanged', kind: 'configuration', path: 'configurations[0]', name: 'Osmosis main' },
    ],
});

describe('configuration import and export', () => {
    beforeEach(() => storeSession());

    it('shows the dry-run plan of a chosen file and applies it only on Apply', async () => {
        let rows = [configuration()];
        const api = stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/configurations': configurationsApi(() => rows),
            'POST /api/import': (req) => {
                const dryRun = req.url.includes('dry_run=true');
                if (!dryRun) rows = [...rows, configuration({ id: 2, name: 'Juno', chain: 'juno' })];
                return { body: plan(dryRun) };
            },
        });
        const user = userEvent.setup();
        renderApp('/configurations');
        await screen.findByRole('heading', { name: 'Osmosis main' });
        await user.upload(
            screen.getByLabelText('Configuration document to import'),
            new File([DOCUMENT], 'nodes.yaml', { type: 'application/yaml' })
        );
        const dialog = await screen.findByRole('dialog', { name: 'Import configurations' });
        expect(
            await within(dialog).findByText('1 to create, 1 to update, 0 to delete, 2 unchanged')
        ).toBeInTheDocument();
        expect(within(dialog).getByText('update server "validator-1"')).toBeInTheDocument();
        expect(within(dialog).getByText('changes address')).toBeInTheDocument();
        expect(within(dialog).queryByText(/Osmosis main/)).toBeNull();
        const imports = () => api.calls.filter((c) => c.path === '/api/import');
        expect(imports().map((c) => c.url)).toEqual(['/api/import?dry_run=true']);
        expect(imports()[0]?.body).toBe(DOCUMENT);
        expect(imports()[0]?.headers.get('content-type')).toBe('application/yaml');

        await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
        expect(await screen.findByText('Import applied: 1 created, 1 updated, 0 deleted')).toBeInTheDocument();
        expect(imports().map((c) => c.url)).toEqual(['/api/import?dry_run=true', '/api/import?dry_run=false']);
        await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
        // The list is asked again and shows what the import created.
        expect(await screen.findByRole('heading', { name: 'Juno' })).toBeInTheDocument();
    });

    it('says a rename is a rename and shows deletions in red with their count before Apply', async () => {
        stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/configurations': { body: [configuration()] },
            'POST /api/import': {
                body: {
                    dry_run: true,
                    applied: false,
                    summary: { create: 0, update: 0, rename: 1, delete: 2, unchanged: 1 },
                    items: [
                        {
                            action: 'rename',
                            kind: 'server',
                            path: 'configurations[0].servers[0]',
                            name: 'validator-a',
                            was: 'validator-1',
                            fields: ['name'],
                        },
                        { action: 'delete', kind: 'monitor', path: 'configurations[0]', name: 'Explorer' },
                        { action: 'delete', kind: 'service', path: 'configurations[0].servers[0]', name: 'rest' },
                    ],
                },
            },
        });
        renderApp('/configurations');
        await screen.findByRole('heading', { name: 'Osmosis main' });
        await userEvent
            .setup()
            .upload(
                screen.getByLabelText('Configuration document to import'),
                new File([DOCUMENT], 'nodes.yaml', { type: 'application/yaml' })
            );
        const dialog = await screen.findByRole('dialog', { name: 'Import configurations' });
        expect(await within(dialog).findByText('rename server "validator-1" to "validator-a"')).toBeInTheDocument();
        const deletions = within(dialog).getByText('2 to delete, with their history');
        expect(deletions).toBeInTheDocument();
        expect(within(dialog).getByText('delete service "rest"')).toBeInTheDocument();
    });

    it('lists every wrong field of a refused document and offers no Apply', async () => {
        stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/configurations': { body: [configuration()] },
            'POST /api/import': {
                status: 400,
                body: {
                    message: 'The document has errors; nothing was changed',
                    errors: { 'configurations[2].monitors[0].type': 'type must be one of urlCheck, blockCheck' },
                },
            },
        });
        const user = userEvent.setup();
        renderApp('/configurations');
        await screen.findByRole('heading', { name: 'Osmosis main' });
        await user.upload(screen.getByLabelText('Configuration document to import'), new File(['x'], 'nodes.yaml'));
        const dialog = await screen.findByRole('dialog', { name: 'Import configurations' });
        expect(await within(dialog).findByText('The document has errors; nothing was changed')).toBeInTheDocument();
        expect(within(dialog).getByText('configurations[2].monitors[0].type')).toBeInTheDocument();
        expect(within(dialog).getByRole('button', { name: 'Apply' })).toBeDisabled();
    });

    it('shows a super admin Export and Import, disabled with a hint, until a company is chosen', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': { body: [configuration()] },
            'GET /api/companies': { body: { results: [{ id: 1, name: 'Acme' }] } },
        });
        renderApp('/configurations');
        await screen.findByRole('heading', { name: 'Osmosis main' });
        expect(screen.getByText('Choose a company to export or import its configurations')).toBeInTheDocument();
        expect(screen.getByRole('button', { name: 'Export' })).toBeDisabled();
        expect(screen.getByLabelText('Configuration document to import')).toBeDisabled();
    });

    it('offers a read-only user Export but not Import', async () => {
        stubApi({
            'GET /api/users/me': { body: plainUser },
            'GET /api/configurations': { body: [configuration()] },
        });
        renderApp('/configurations');
        await screen.findByRole('heading', { name: 'Osmosis main' });
        expect(screen.getByRole('button', { name: 'Export' })).toBeInTheDocument();
        expect(screen.queryByLabelText('Configuration document to import')).toBeNull();
    });
});
