import type { Db } from './db/client';
import { auditEntries } from './db/schema';

export interface AuditInput {
    companyId: number | null;
    actorUserId?: number | null;
    ip?: string | null;
    configuration?: { id: number; name: string } | null;
    server?: { id: number; name: string } | null;
    monitor?: { id: number; name: string } | null;
    message: string;
}

export async function writeAudit(db: Db, entry: AuditInput): Promise<void> {
    await db.insert(auditEntries).values({
        companyId: entry.companyId,
        actorUserId: entry.actorUserId ?? null,
        ip: entry.ip ?? null,
        configurationId: entry.configuration?.id ?? null,
        configurationName: entry.configuration?.name ?? null,
        serverId: entry.server?.id ?? null,
        serverName: entry.server?.name ?? null,
        monitorId: entry.monitor?.id ?? null,
        monitorName: entry.monitor?.name ?? null,
        message: entry.message,
    });
}
