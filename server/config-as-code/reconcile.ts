import type { Db } from '../db/client';
import type { EventName } from '../events';
import { badRequest } from '../errors';
import type { CompanyTree } from './current';
import type { ConfigDocument, MonitorDoc } from './document';
import { reconcileConfigurations } from './steps/configurations';
import type { Action, AddressRules, Plan, Who } from './plan';
import { startWalk } from './steps/walk';

/** Every address the document would make the console reach, with its path. */
function* addressesOf(doc: ConfigDocument): Generator<{ address: string; at: string }> {
    for (const [ci, c] of doc.configurations.entries()) {
        const at = `configurations[${ci}]`;
        for (const [ei, e] of c.chain_endpoints.entries())
            yield { address: e.address, at: `${at}.chain_endpoints[${ei}].address` };
        const monitorAddresses = function* (list: MonitorDoc[], parent: string) {
            for (const [mi, m] of list.entries())
                if (typeof m.settings.address === 'string')
                    yield { address: m.settings.address, at: `${parent}.monitors[${mi}].settings.address` };
        };
        yield* monitorAddresses(c.monitors, at);
        for (const [si, s] of c.servers.entries()) {
            const sat = `${at}.servers[${si}]`;
            for (const [vi, v] of s.services.entries())
                yield { address: v.address, at: `${sat}.services[${vi}].address` };
            yield* monitorAddresses(s.monitors, sat);
        }
    }
}

/** Refuses the whole document, naming every field, when it links an unknown channel or reaches a refused address. */
async function checkReferences(tree: CompanyTree, doc: ConfigDocument, rules: AddressRules): Promise<void> {
    const channelNames = new Set(tree.channels.map((c) => c.name));
    const missing: Record<string, string> = {};
    for (const [ci, c] of doc.configurations.entries()) {
        for (const [li, name] of c.channels.entries()) {
            if (!channelNames.has(name))
                missing[`configurations[${ci}].channels[${li}]`] = `No notification channel is called "${name}"`;
        }
    }
    for (const { address, at } of addressesOf(doc)) {
        const why = await rules.refused(address);
        if (why) missing[at] = why;
    }
    if (Object.keys(missing).length) throw badRequest(missing, 'The document has errors; nothing was changed');
}

/**
 * Compares a document with the company's stored tree by names and, when `tx` is given, makes the stored tree
 * equal to the document as it goes: creates, updates and deletes with one audit entry each. The same walk makes
 * the plan and the change, so a dry run names exactly what a real run does. Rows the document leaves out are
 * deleted (a configuration takes its servers, services, monitors and links with it). One step per entity
 * (`steps/`): configurations, their channel links, servers, services, monitors.
 */
export async function reconcile(
    tree: CompanyTree,
    doc: ConfigDocument,
    tx: Db | null,
    who: Who,
    rules: AddressRules
): Promise<{ plan: Plan; events: EventName[] }> {
    await checkReferences(tree, doc, rules);
    const walk = startWalk(tree, tx, who, rules);
    await reconcileConfigurations(walk, doc.configurations);
    const summary: Record<Action, number> = { create: 0, update: 0, rename: 0, unchanged: 0, delete: 0 };
    for (const item of walk.items) summary[item.action]++;
    return { plan: { summary, items: walk.items }, events: walk.events };
}
