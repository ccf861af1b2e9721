import { defaultDarkTheme, defaultTheme, type RaThemeOptions } from 'react-admin';

/** Sidebar 240 px open, 64 px collapsed (spec §9). */
export const SIDEBAR_WIDTH = 240;
export const SIDEBAR_CLOSED_WIDTH = 64;

export const theme: RaThemeOptions = {
    ...defaultTheme,
    sidebar: { width: SIDEBAR_WIDTH, closedWidth: SIDEBAR_CLOSED_WIDTH },
};

/** react-admin's dark theme with the same sidebar; the app bar's theme switcher toggles between the two. */
export const darkTheme: RaThemeOptions = {
    ...defaultDarkTheme,
    sidebar: { width: SIDEBAR_WIDTH, closedWidth: SIDEBAR_CLOSED_WIDTH },
};
