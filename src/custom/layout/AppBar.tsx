import KeyIcon from '@mui/icons-material/Key';
import { Box, ListItemIcon, ListItemText, MenuItem, Typography } from '@mui/material';
import { forwardRef } from 'react';
import { Logout, AppBar as RaAppBar, TitlePortal, UserMenu, useGetIdentity, useUserMenu } from 'react-admin';
import { Link } from 'react-router-dom';

/** The user menu's way to the signed-in user's API tokens. */
const ApiTokensItem = forwardRef<HTMLAnchorElement>((props, ref) => {
    const menu = useUserMenu();
    return (
        <MenuItem component={Link} to="/api-tokens" ref={ref} onClick={menu?.onClose} {...props}>
            <ListItemIcon>
                <KeyIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>API tokens</ListItemText>
        </MenuItem>
    );
});

/**
 * Top bar: the product name, then the current page's title; the theme switcher; the user menu holds API tokens and
 * logout. The user menu's button shows the username, so its label starts with it (WCAG 2.5.3: a speech user says
 * what they see).
 */
export const AppBar = () => {
    const { identity } = useGetIdentity();
    return (
        <RaAppBar
            userMenu={
                <UserMenu label={identity?.fullName ? `${identity.fullName} (Profile)` : 'Profile'}>
                    <ApiTokensItem />
                    <Logout />
                </UserMenu>
            }
        >
            <Typography
                variant="h6"
                component="span"
                sx={{ whiteSpace: 'nowrap', mr: 2, display: { xs: 'none', sm: 'inline' } }}
            >
                Node Monitor
            </Typography>
            <Box sx={{ flex: 1, display: 'flex', alignItems: 'center' }}>
                <TitlePortal variant="subtitle1" />
            </Box>
        </RaAppBar>
    );
};
