import AccountTreeIcon from '@mui/icons-material/AccountTree';
import BusinessIcon from '@mui/icons-material/Business';
import DashboardIcon from '@mui/icons-material/Dashboard';
import HistoryIcon from '@mui/icons-material/History';
import LanIcon from '@mui/icons-material/Lan';
import LogoutIcon from '@mui/icons-material/Logout';
import NotificationsIcon from '@mui/icons-material/Notifications';
import PeopleIcon from '@mui/icons-material/People';
import PublicIcon from '@mui/icons-material/Public';
import ReportProblemIcon from '@mui/icons-material/ReportProblem';
import TerminalIcon from '@mui/icons-material/Terminal';
import type { ReactElement } from 'react';

export interface MenuEntry {
    label: string;
    to: string;
    icon: ReactElement;
    /** The canAccess resource checked before showing the entry; none means any signed-in user. */
    resource?: string;
}

export interface MenuGroup {
    title: string;
    entries: MenuEntry[];
}

/** The side navigation of docs/spec.md §2. */
export const MENU_GROUPS: MenuGroup[] = [
    {
        title: 'Main',
        entries: [
            { label: 'Dashboard', to: '/', icon: <DashboardIcon /> },
            { label: 'Configurations', to: '/configurations', icon: <AccountTreeIcon /> },
            { label: 'Notification channels', to: '/notification-channels', icon: <NotificationsIcon /> },
            { label: 'Network Status', to: '/network-status', icon: <LanIcon /> },
            { label: 'Incidents', to: '/incidents', icon: <ReportProblemIcon /> },
            { label: 'Status pages', to: '/status-pages', icon: <PublicIcon /> },
            { label: 'Users', to: '/users', icon: <PeopleIcon />, resource: 'users' },
            { label: 'Company', to: '/companies', icon: <BusinessIcon />, resource: 'companies' },
        ],
    },
    {
        title: 'System',
        entries: [
            { label: 'Tail log', to: '/logger', icon: <TerminalIcon />, resource: 'logger' },
            { label: 'Audit', to: '/audit', icon: <HistoryIcon /> },
        ],
    },
    {
        title: 'Account',
        entries: [{ label: 'Logout', to: '/logout', icon: <LogoutIcon /> }],
    },
];
