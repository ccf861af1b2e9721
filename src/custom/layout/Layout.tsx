import { Container } from '@mui/material';
import type { ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';

import { AppBar } from './AppBar';
import { AppMenu } from './AppMenu';

/**
 * react-admin's layout with our bar and menu; page content sits in an xl container (docs/spec.md §9). Its root and content
 * may be narrower than their content (react-admin makes the root fit-content): a wide table then scrolls in its own
 * container instead of widening the whole page at 390 px.
 */
export const Layout = ({ children }: { children: ReactNode }) => (
    <RaLayout appBar={AppBar} menu={AppMenu} sx={{ minWidth: 0, '& .RaLayout-content': { minWidth: 0 } }}>
        <Container maxWidth="xl" disableGutters sx={{ py: 2, minWidth: 0 }}>
            {children}
        </Container>
    </RaLayout>
);
