import { Container } from '@mui/material';
import type { ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';

import { AppBar } from './AppBar';
import { AppMenu } from './AppMenu';

/** react-admin's layout with our bar and menu; page content sits in an xl container (spec §9). */
export const Layout = ({ children }: { children: ReactNode }) => (
    <RaLayout appBar={AppBar} menu={AppMenu} sx={{ '& .RaLayout-content': { minWidth: 0 } }}>
        {/* minWidth 0: a wide table scrolls in its own container instead of widening the page (390 px). */}
        <Container maxWidth="xl" disableGutters sx={{ py: 2, minWidth: 0 }}>
            {children}
        </Container>
    </RaLayout>
);
