import { defaultTheme, type RaThemeOptions } from 'react-admin';

/** Sidebar 240 px open, 64 px collapsed (spec §9). */
export const SIDEBAR_WIDTH = 240;
export const SIDEBAR_CLOSED_WIDTH = 64;

export const theme: RaThemeOptions = {
    ...defaultTheme,
    sidebar: { width: SIDEBAR_WIDTH, closedWidth: SIDEBAR_CLOSED_WIDTH },
};
