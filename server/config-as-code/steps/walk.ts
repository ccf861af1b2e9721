import { type AuditInput, writeAudit } from '../../audit';
import { openAddress, sealAddress } from '../../auth/url-credentials';
import type { Db } from '../../db/client';
import type { EventName } from '../../events';
import type { CompanyTree } from '../current';
import type { AddressRules, PlanItem, Who } from '../plan';

/** A row as the audit log names it. */
export type Ref = { id: number; name: string };

/** An address as the API stores it (password masked, the whole URL sealed beside it), and whether it is unchanged. */
export type KeptAddress = { address: string; secret: string | null; same: boolean };

/** What every step of one reconcile shares: the stored tree, the transaction (none on a dry run), the plan so far. */
export interface Walk {
    tree: CompanyTree;
    companyId: number;
    /** Null on a dry run: the steps only plan. */
    tx: Db | null;
    /** The company's channels by name. */
    channelIds: Map<string, number>;
    items: PlanItem[];
    events: EventName[];
    /**
     * `submitted` as it would be stored, given what is stored: a masked password stands for the stored password,
     * and is refused where none is stored for that origin.
     */
    keep(submitted: string, stored: { address: string; secret: string | null } | null, at: string): KeptAddress;
    /** One audit entry, on a real run only. */
    audit(message: string, refs: Partial<AuditInput>): Promise<void>;
    /** Adds a plan entry, and its event unless nothing changes. */
    note(item: PlanItem, event?: EventName): void;
}

export function startWalk(tree: CompanyTree, tx: Db | null, who: Who, rules: AddressRules): Walk {
    const walk: Walk = {
        tree,
        companyId: who.companyId,
        tx,
        channelIds: new Map(tree.channels.map((c) => [c.name, c.id])),
        items: [],
        events: [],
        keep(submitted, stored, at) {
            const sealed = sealAddress(rules.key, submitted, stored?.secret ?? null, at);
            const full = (a: { address: string; secret: string | null }) => openAddress(rules.key, a.address, a.secret);
            return { ...sealed, same: stored !== null && full(stored) === full(sealed) };
        },
        async audit(message, refs) {
            if (!tx) return;
            await writeAudit(tx, {
                companyId: who.companyId,
                actorUserId: who.actorUserId,
                ip: who.ip,
                ...refs,
                message: `${message} by ${who.username} (import)`,
            });
        },
        note(item, event) {
            walk.items.push(item);
            if (event && item.action !== 'unchanged') walk.events.push(event);
        },
    };
    return walk;
}

/** Canonical JSON (sorted keys), so settings compare by value whatever their key order. */
function canonical(v: unknown): string {
    if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
    if (v && typeof v === 'object')
        return `{${Object.keys(v)
            .sort()
            .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
            .join(',')}}`;
    return JSON.stringify(v);
}

/** A matched row's plan entry: a rename when its name changed (it was matched by its key), else update or unchanged. */
export const outcome = (fields: string[], was: string): Pick<PlanItem, 'action' | 'fields' | 'was'> =>
    fields.includes('name')
        ? { action: 'rename', fields, was }
        : fields.length
          ? { action: 'update', fields }
          : { action: 'unchanged' };

/** The document's names of the fields whose values differ. */
export const changed = <T extends object>(before: T, after: T): string[] =>
    (Object.keys(after) as (keyof T)[]).filter((k) => canonical(before[k]) !== canonical(after[k])).map(String);
