export type Action = 'create' | 'update' | 'rename' | 'unchanged' | 'delete';
export type Kind = 'configuration' | 'server' | 'service' | 'monitor' | 'channel_link';

export interface PlanItem {
    action: Action;
    kind: Kind;
    /** Where the row is in the document (for deletes: what it was called). */
    path: string;
    name: string;
    /** The fields an update changes. */
    fields?: string[];
    /** A rename (matched by its key): what it was called. */
    was?: string;
}

export interface Plan {
    summary: Record<Action, number>;
    items: PlanItem[];
}

/** How addresses are kept, as the API keeps them: judged against the company's networks, passwords sealed. */
export interface AddressRules {
    key: Uint8Array;
    /** Why the company may not save this address (outside its allowed networks), or null. */
    refused(address: string): Promise<string | null>;
}

export interface Who {
    companyId: number;
    actorUserId: number | null;
    username: string;
    ip: string | null;
}
