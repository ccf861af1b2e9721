import { sql } from 'drizzle-orm';
import type { ClusterEnv } from './cluster-env';

/** The lock's number in server/assembly/background.ts, as pg_locks shows it (objid; classid 0). */
const LOCK_OBJID = 0x4e4d5349;

/**
 * The connections holding the lock of the cluster-wide duties in the cluster's database: each one's application_name
 * and the pid of the process it names.
 */
export async function dutyHolders(cluster: ClusterEnv): Promise<{ name: string; pid: number | null }[]> {
    const result = (await cluster.db.execute(sql`
        select a.application_name as name from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where l.locktype = 'advisory' and l.granted and l.objid = ${LOCK_OBJID} and l.database = (
            select oid from pg_database where datname = current_database())`)) as unknown as {
        rows: { name: string }[];
    };
    return result.rows.map(({ name }) => {
        const pid = /pid=(\d+)/.exec(name)?.[1];
        return { name, pid: pid ? Number(pid) : null };
    });
}
