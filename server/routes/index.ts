import { historyRoutes } from './history';
import type { FastifyInstance } from 'fastify';
import { apiTokenRoutes } from './api-tokens';
import { auditRoutes } from './audit';
import { authRoutes } from './auth';
import { chainRoutes } from './chains';
import { companyRoutes } from './companies';
import { configAsCodeRoutes } from './config-as-code';
import { configurationRoutes } from './configurations';
import { healthRoutes } from './health';
import { incidentRoutes } from './incidents';
import { logRoutes } from './logs';
import { metricsRoutes } from './metrics';
import { monitorRoutes } from './monitors';
import { notificationChannelRoutes } from './notification-channels';
import { prometheusRoutes } from './prometheus';
import { publicStatusRoutes } from './public-status';
import { serverRoutes } from './servers';
import { serviceRoutes } from './services';
import { silenceRoutes } from './silences';
import { statusPageRoutes } from './status-pages';
import { userRoutes } from './users';

/** Every API plugin, one line each. */
export async function registerRoutes(app: FastifyInstance): Promise<void> {
    await app.register(healthRoutes);
    await app.register(chainRoutes);
    await app.register(authRoutes);
    await app.register(companyRoutes);
    await app.register(userRoutes);
    await app.register(configurationRoutes);
    await app.register(serverRoutes);
    await app.register(serviceRoutes);
    await app.register(monitorRoutes);
    await app.register(notificationChannelRoutes);
    await app.register(metricsRoutes);
    await app.register(historyRoutes);
    await app.register(auditRoutes);
    await app.register(logRoutes);
    await app.register(prometheusRoutes);
    await app.register(configAsCodeRoutes);
    await app.register(apiTokenRoutes);
    await app.register(silenceRoutes);
    await app.register(incidentRoutes);
    await app.register(statusPageRoutes);
    await app.register(publicStatusRoutes);
}
