import { Admin, type AuthProvider, CustomRoutes, type DataProvider, Resource } from 'react-admin';
import { BrowserRouter, Route } from 'react-router-dom';

import { LoadingScreen } from './custom/layout/LoadingScreen';
import { Layout } from './custom/layout/Layout';
import { LogoutPage } from './custom/layout/LogoutPage';
import { darkTheme, theme } from './custom/layout/theme';
import { LoginPage } from './custom/login/LoginPage';
import { NotistackNotification } from './custom/notifications/NotistackNotification';
import { ToastProvider } from './custom/notifications/ToastProvider';
import { SuperAdminOnly } from './ui/SuperAdminOnly';
import { lazyNamed } from './lazyNamed';
import { authProvider as defaultAuthProvider } from './providers/authProvider';
import { dataProvider as defaultDataProvider } from './providers/dataProvider';
import companies from './resources/companies';
import configurations from './resources/configurations';
import incidents from './resources/incidents';
import monitors from './resources/monitors';
import notificationChannels from './resources/notification-channels';
import servers from './resources/servers';
import services from './resources/services';
import statusPages from './resources/status-pages';
import users from './resources/users';

const Dashboard = lazyNamed(() => import('./custom/dashboard/Dashboard'), 'Dashboard');
const NetworkStatus = lazyNamed(() => import('./custom/network-status/NetworkStatus'), 'NetworkStatus');
const AuditPage = lazyNamed(() => import('./custom/audit/AuditPage'), 'AuditPage');
const LogTail = lazyNamed(() => import('./custom/log-tail/LogTail'), 'LogTail');
const MonitorPage = lazyNamed(() => import('./resources/monitors/MonitorPage'), 'MonitorPage');
const ApiTokensPage = lazyNamed(() => import('./custom/api-tokens/ApiTokensPage'), 'ApiTokensPage');

export interface AdminAppProps {
    dataProvider?: DataProvider;
    authProvider?: AuthProvider;
}

/** The admin without its router, so tests can mount it in a MemoryRouter. */
export const AdminApp = ({ dataProvider = defaultDataProvider, authProvider = defaultAuthProvider }: AdminAppProps) => (
    <ToastProvider>
        <Admin
            title="Node Monitor"
            disableTelemetry
            requireAuth
            dataProvider={dataProvider}
            authProvider={authProvider}
            layout={Layout}
            loginPage={LoginPage}
            dashboard={Dashboard}
            notification={NotistackNotification}
            loading={LoadingScreen}
            theme={theme}
            darkTheme={darkTheme}
        >
            <Resource name="configurations" {...configurations} />
            <Resource name="servers" {...servers} />
            <Resource name="monitors" {...monitors} />
            <Resource name="services" {...services} />
            <Resource name="notification-channels" {...notificationChannels} />
            <Resource name="incidents" {...incidents} />
            <Resource name="status-pages" {...statusPages} />
            <Resource name="companies" {...companies} />
            <Resource name="users" {...users} />
            <CustomRoutes>
                <Route path="/network-status" element={<NetworkStatus />} />
                <Route path="/audit" element={<AuditPage />} />
                <Route
                    path="/logger"
                    element={
                        <SuperAdminOnly title="Tail log">
                            <LogTail />
                        </SuperAdminOnly>
                    }
                />
                <Route path="/monitor/:id" element={<MonitorPage />} />
                <Route path="/api-tokens" element={<ApiTokensPage />} />
            </CustomRoutes>
            <CustomRoutes noLayout>
                <Route path="/logout" element={<LogoutPage />} />
            </CustomRoutes>
        </Admin>
    </ToastProvider>
);

/** Browser history routes (`/configurations/5`, not `/#/…`); the server answers every such path with index.html. */
export const App = () => (
    <BrowserRouter>
        <AdminApp />
    </BrowserRouter>
);
