import { defaultDarkTheme, defaultTheme, type RaThemeOptions } from 'react-admin';

/** Sidebar 240 px open, 64 px collapsed (docs/spec.md §9). */
export const SIDEBAR_WIDTH = 240;
export const SIDEBAR_CLOSED_WIDTH = 64;

/**
 * What both themes share: the sidebar, a name for every spinner (axe's aria-progressbar-name), and card titles as
 * h2 under the page's h1, so a screen reader's heading list is the page's outline.
 */
const shared: RaThemeOptions = {
    sidebar: { width: SIDEBAR_WIDTH, closedWidth: SIDEBAR_CLOSED_WIDTH },
    components: {
        MuiCircularProgress: { defaultProps: { 'aria-label': 'Loading' } },
        MuiLinearProgress: { defaultProps: { 'aria-label': 'Loading' } },
        MuiCardHeader: { defaultProps: { slotProps: { title: { component: 'h2' } } } },
    },
};

/**
 * react-admin's light theme with colours dark enough for white text and for text on white (WCAG AA, 4.5:1): its
 * app bar blue (#2196f3), MUI's orange (#ed6c02) and light blue (#0288d1) reach only 3 to 4:1.
 */
export const theme: RaThemeOptions = {
    ...defaultTheme,
    ...shared,
    palette: {
        ...defaultTheme.palette,
        primary: { main: '#1565c0' },
        secondary: { light: '#5e92f3', main: '#1565c0', dark: '#003c8f', contrastText: '#fff' },
        warning: { main: '#c2410c', contrastText: '#fff' },
        info: { main: '#0277bd', contrastText: '#fff' },
    },
    components: { ...defaultTheme.components, ...shared.components },
};

/** react-admin's dark theme with the same sidebar; the app bar's theme switcher toggles between the two. */
export const darkTheme: RaThemeOptions = {
    ...defaultDarkTheme,
    ...shared,
    // MUI's dark red (#f44336) reads at about 3.5:1 on the dark grey, and white on it as little.
    palette: { ...defaultDarkTheme.palette, error: { main: '#ff8a80', contrastText: 'rgba(0, 0, 0, 0.87)' } },
    components: { ...defaultDarkTheme.components, ...shared.components },
};
