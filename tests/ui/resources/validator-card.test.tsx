import { screen, within } from '@testing-library/react';

import type { ValidatorCard } from '../../../common/validator-card';
import { storeSession, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';
import { configuration, monitor, server } from './configurationFixtures';

const VALOPER = 'cosmosvaloper1xqz9pemz5e5zycaa89kys5aw6m8rhgsvw4328e';
const H = 3_600_000;

function routes(monitors: ReturnType<typeof monitor>[], card?: ValidatorCard) {
    const config = configuration({ servers: [server({ monitors })], monitors });
    return {
        'GET /api/users/me': { body: superAdmin },
        'GET /api/configurations/1': { body: config },
        'GET /api/configurations/1/servers': { body: config.servers },
        'GET /api/configurations/1/monitors': { body: config.monitors },
        'GET /api/configurations/1/notification-channels': { body: [] },
        'GET /api/notification-channels': { body: [] },
        'GET /api/companies': { body: { results: [] } },
        ...(card ? { 'GET /api/configurations/1/validator': { body: card } } : {}),
    } as Parameters<typeof stubApi>[0];
}

const duty = [
    monitor({ id: 5, name: 'jail budget', type: 'slashingWindow', configuration_object: '{}' }),
    monitor({ id: 6, name: 'votes', type: 'governanceVote', configuration_object: '{}' }),
];

describe('Validator card', () => {
    beforeEach(() => storeSession());

    it('shows moniker, status, rank, voting power, commission, the jail gauge, proposals and the upgrade', async () => {
        const now = Date.now();
        stubApi(
            routes(duty, {
                configuration_id: 1,
                validators: [
                    {
                        valoper: VALOPER,
                        moniker: 'Quokka Stake',
                        status: 'BOND_STATUS_BONDED',
                        jailed: false,
                        rank: 142,
                        max_validators: 180,
                        tokens: '195312402881',
                        denom: 'uatom',
                        voting_power_percent: 0.07,
                        commission_percent: 5,
                        jail_budget: {
                            missed: 2400,
                            budget: 9500,
                            left: 7100,
                            used_percent: 25.3,
                            ms_to_jail: 3 * H,
                            jailed: false,
                            tombstoned: false,
                        },
                        proposals: [
                            {
                                id: '936',
                                title: 'Signal text',
                                voting_end: new Date(now + 20 * H).toISOString(),
                                voted: false,
                                options: [],
                            },
                            {
                                id: '937',
                                title: 'Gaia v18',
                                voting_end: new Date(now + 50 * H).toISOString(),
                                voted: true,
                                options: ['VOTE_OPTION_YES'],
                            },
                        ],
                        signing: {
                            blocks: [
                                ...Array.from({ length: 97 }, (_, i) => ({
                                    height: 1_204_300 + i,
                                    state: 'signed' as const,
                                })),
                                { height: 1_204_397, state: 'proposed' },
                                { height: 1_204_398, state: 'missed' },
                                { height: 1_204_399, state: 'missed' },
                            ],
                            source: 'sentry-1',
                        },
                        read_at: new Date(now).toISOString(),
                    },
                ],
                upgrade: {
                    plan: { name: 'v18', height: 21330500, eta: new Date(now + 10 * 60_000).toISOString() },
                    app_version: 'v17.2.0',
                    latest_height: 21330400,
                    read_at: new Date(now).toISOString(),
                },
            })
        );
        renderApp('/configurations/1');
        expect(await screen.findByRole('heading', { name: 'Osmosis main', level: 1 })).toBeInTheDocument();
        const card = (await screen.findByRole('heading', { name: 'Quokka Stake' })).closest(
            '.MuiCard-root'
        ) as HTMLElement;
        const inCard = within(card);
        expect(inCard.getByText('Validator')).toBeInTheDocument();
        expect(inCard.getByText('Bonded')).toBeInTheDocument();
        expect(inCard.getByText('Rank:').parentElement).toHaveTextContent('Rank: 142 / 180');
        expect(inCard.getByText('Voting power:').parentElement).toHaveTextContent(
            'Voting power: 0.07 % (195,312 ATOM)'
        );
        expect(inCard.getByText('Commission:').parentElement).toHaveTextContent('Commission: 5 %');
        expect(inCard.getByText('Jail budget:').parentElement).toHaveTextContent(
            'Jail budget: 2400 of 9500 missed (25.3 %)'
        );
        expect(inCard.getByRole('progressbar', { name: 'Jail budget used' })).toHaveAttribute('aria-valuenow', '25');
        expect(inCard.getByText('7100 blocks left · time to jail about 3.0 h')).toBeInTheDocument();
        const unvoted = inCard.getByText('#936 Signal text').parentElement as HTMLElement;
        expect(within(unvoted).getByText('Not voted')).toBeInTheDocument();
        expect(within(unvoted).getByText('ends in 20.0 h')).toBeInTheDocument();
        const voted = inCard.getByText('#937 Gaia v18').parentElement as HTMLElement;
        expect(within(voted).getByText('Voted')).toBeInTheDocument();
        expect(within(voted).getByText('ends in 2.1 days')).toBeInTheDocument();
        expect(inCard.getByText('Scheduled upgrade:').parentElement).toHaveTextContent(
            /Scheduled upgrade: v18 at height 21330500, expected .* \(in 10 min\)/
        );
        expect(inCard.getByText('App version:').parentElement).toHaveTextContent('App version: v17.2.0');
        // The signing grid: one image named by the summary written under it, cells told apart by shape too.
        const summary =
            'Last 100 blocks (1,204,300–1,204,399): 97 signed, 2 missed: 1,204,398, 1,204,399, 1 proposed; read through sentry-1';
        const grid = inCard.getByRole('img', { name: summary });
        expect(grid.querySelectorAll('[data-state="missed"]')).toHaveLength(2);
        expect(grid.querySelectorAll('[data-state="proposed"]')).toHaveLength(1);
        expect(grid.children).toHaveLength(100);
        expect(inCard.getByText(summary)).toBeInTheDocument();
    });

    it('is not shown for a configuration without validator-duty monitors', async () => {
        const { calls } = stubApi(routes([monitor()]));
        renderApp('/configurations/1');
        expect(await screen.findByRole('heading', { name: 'Osmosis main', level: 1 })).toBeInTheDocument();
        expect(await screen.findByRole('table', { name: 'Monitors' })).toBeInTheDocument();
        expect(screen.queryByText('Validator')).not.toBeInTheDocument();
        expect(calls.some((c) => c.path === '/api/configurations/1/validator')).toBe(false);
    });
});
