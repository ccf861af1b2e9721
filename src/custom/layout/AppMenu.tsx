import { Divider, ListSubheader } from '@mui/material';
import type { ReactElement } from 'react';
import { Menu, MenuItemLink, useGetIdentity, useSidebarState } from 'react-admin';

import type { User } from '../../../common/entities';
import { canAccess } from '../../providers/canAccess';
import { MENU_GROUPS } from './menuEntries';

/** Grouped side navigation; entries the user may not open are hidden, and nothing shows while signed out. */
export const AppMenu = () => {
    const [open] = useSidebarState();
    const { identity } = useGetIdentity();
    if (!identity) return null;
    const user = identity as unknown as User;
    // A flat list of children: MUI's MenuList does not accept fragments.
    const items: ReactElement[] = [];
    for (const group of MENU_GROUPS) {
        const entries = group.entries.filter(
            (entry) => !entry.resource || canAccess(user, { resource: entry.resource, action: 'list' })
        );
        if (entries.length === 0) continue;
        if (open) {
            items.push(
                // A heading among menu items: presentation, so the menu owns only items (axe aria-required-children).
                <ListSubheader
                    key={`group-${group.title}`}
                    role="presentation"
                    disableSticky
                    sx={{ lineHeight: '32px', mt: 1, color: 'text.secondary' }}
                >
                    {group.title}
                </ListSubheader>
            );
        } else if (items.length > 0) {
            items.push(<Divider key={`divider-${group.title}`} sx={{ my: 1 }} />);
        }
        for (const entry of entries) {
            items.push(<MenuItemLink key={entry.to} to={entry.to} primaryText={entry.label} leftIcon={entry.icon} />);
        }
    }
    return <Menu>{items}</Menu>;
};
