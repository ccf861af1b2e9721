import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';

import { AdminApp } from '../../src/App';

/** The whole app (real providers over the stubbed fetch) at one route. */
export function renderApp(path = '/') {
    return render(
        <MemoryRouter initialEntries={[path]}>
            <AdminApp />
        </MemoryRouter>
    );
}
