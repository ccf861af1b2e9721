import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import {
    Alert,
    Avatar,
    Box,
    Button,
    Card,
    CardContent,
    IconButton,
    InputAdornment,
    TextField,
    Typography,
} from '@mui/material';
import { type SnackbarKey, useSnackbar } from 'notistack';
import { type FormEvent, useRef, useState } from 'react';
import { useLogin } from 'react-admin';

import { endedReason } from '../../providers/session';
import { loginErrorMessage } from './loginErrorMessage';

/** The signed-out screen (docs/spec.md §2), saying why the last session ended when it did not end by signing out here. */
export const LoginPage = () => {
    const login = useLogin();
    const [ended] = useState(endedReason);
    const { enqueueSnackbar, closeSnackbar } = useSnackbar();
    // The refusal of the previous attempt: a new attempt takes it off screen, so it never outlives a good login.
    const lastError = useRef<SnackbarKey | null>(null);
    const [username, setUsername] = useState('');
    const [password, setPassword] = useState('');
    const [showPassword, setShowPassword] = useState(false);
    const [busy, setBusy] = useState(false);

    const submit = async (event: FormEvent) => {
        event.preventDefault();
        setBusy(true);
        if (lastError.current !== null) closeSnackbar(lastError.current);
        lastError.current = null;
        try {
            await login({ username, password });
        } catch (error) {
            lastError.current = enqueueSnackbar(loginErrorMessage(error), { variant: 'error' });
            setBusy(false);
        }
    };

    return (
        <Box
            component="main"
            sx={{
                minHeight: '100vh',
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
                bgcolor: 'background.default',
                p: 2,
            }}
        >
            <Card sx={{ width: '100%', maxWidth: 400 }}>
                <CardContent sx={{ p: 4 }}>
                    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', mb: 3 }}>
                        <Avatar sx={{ bgcolor: 'primary.main', mb: 1 }}>
                            <LockOutlinedIcon />
                        </Avatar>
                        <Typography component="h1" variant="h5">
                            Node Monitor
                        </Typography>
                        <Typography variant="body2" color="text.secondary">
                            Sign in to monitor your nodes
                        </Typography>
                    </Box>
                    {ended && (
                        <Alert severity="info" sx={{ mb: 1 }}>
                            {ended}
                        </Alert>
                    )}
                    <Box component="form" onSubmit={submit} noValidate>
                        <TextField
                            label="Username"
                            name="username"
                            autoComplete="username"
                            autoFocus
                            fullWidth
                            margin="normal"
                            value={username}
                            disabled={busy}
                            onChange={(event) => setUsername(event.target.value)}
                        />
                        <TextField
                            label="Password"
                            name="password"
                            type={showPassword ? 'text' : 'password'}
                            autoComplete="current-password"
                            fullWidth
                            margin="normal"
                            value={password}
                            disabled={busy}
                            onChange={(event) => setPassword(event.target.value)}
                            slotProps={{
                                input: {
                                    endAdornment: (
                                        <InputAdornment position="end">
                                            <IconButton
                                                aria-label="toggle password visibility"
                                                onClick={() => setShowPassword((shown) => !shown)}
                                                edge="end"
                                                disabled={busy}
                                            >
                                                {showPassword ? <VisibilityOff /> : <Visibility />}
                                            </IconButton>
                                        </InputAdornment>
                                    ),
                                },
                            }}
                        />
                        <Button type="submit" variant="contained" fullWidth sx={{ mt: 3 }} disabled={busy}>
                            {busy ? 'Signing in...' : 'Sign in'}
                        </Button>
                    </Box>
                </CardContent>
            </Card>
        </Box>
    );
};
