import { z } from 'zod';
import { CHAIN_ENDPOINT_TYPES } from '../../../common/chain-endpoints';
import { MONITOR_TYPES } from '../../../common/monitor-types';
import { SERVICE_TYPES } from '../../../common/service-types';
import type { ConfigDocument } from '../../config-as-code/document';
import type { Plan } from '../../config-as-code/plan';
import type { Expect, Same } from './answers';

/** The export document as it is written (config-as-code/document.ts parses it back, with its defaults and rules). */
const monitorDoc = z.object({
    key: z.string().optional().describe('Stable key of the row: an import matches by it, so a rename keeps history'),
    name: z.string(),
    type: z.enum(MONITOR_TYPES),
    is_enabled: z.boolean(),
    settings: z.record(z.string(), z.unknown()),
    locations: z.array(z.string()).nullable().optional().describe('The probe locations that check it; absent: all'),
    confirm: z.number().int().optional().describe('How many locations must see a failure before Error; absent: 1'),
});

export const configDocument = z.object({
    version: z.literal(1),
    company: z.string().optional(),
    configurations: z.array(
        z.object({
            key: z
                .string()
                .optional()
                .describe('Stable key of the row: an import matches by it, so a rename keeps history'),
            name: z.string(),
            chain: z.string(),
            is_enabled: z.boolean(),
            chain_endpoints: z
                .array(z.object({ type: z.enum(CHAIN_ENDPOINT_TYPES), address: z.string() }))
                .describe('RPC/REST endpoints of the chain beside the servers'),
            channels: z.array(z.string()).describe('Linked notification channels, by name'),
            servers: z.array(
                z.object({
                    key: z
                        .string()
                        .optional()
                        .describe('Stable key of the row: an import matches by it, so a rename keeps history'),
                    name: z.string(),
                    address: z.string(),
                    is_enabled: z.boolean(),
                    services: z.array(
                        z.object({
                            key: z
                                .string()
                                .optional()
                                .describe('Stable key of the row: an import matches by it, so a rename keeps history'),
                            name: z.string(),
                            type: z.enum(SERVICE_TYPES),
                            address: z.string(),
                            is_enabled: z.boolean(),
                        })
                    ),
                    monitors: z.array(monitorDoc),
                })
            ),
            monitors: z.array(monitorDoc).describe('Monitors that read no service of a server'),
        })
    ),
});

const ACTIONS = ['create', 'update', 'rename', 'unchanged', 'delete'] as const;

/** What an import does (or, on a dry run, would do). */
export const importPlan = z.object({
    dry_run: z.boolean(),
    applied: z.boolean(),
    summary: z.object({
        create: z.number().int(),
        update: z.number().int(),
        rename: z.number().int(),
        unchanged: z.number().int(),
        delete: z.number().int(),
    }),
    items: z.array(
        z.object({
            action: z.enum(ACTIONS),
            kind: z.enum(['configuration', 'server', 'service', 'monitor', 'channel_link']),
            path: z.string(),
            name: z.string(),
            fields: z.array(z.string()).optional(),
            was: z.string().optional().describe('A rename: the name it had'),
        })
    ),
});

/** Fail to compile when the schemas and the types the code writes differ in any field. */
export type SchemasMatchDocument = [
    Expect<Same<z.output<typeof configDocument>, ConfigDocument>>,
    Expect<Same<Omit<z.output<typeof importPlan>, 'dry_run' | 'applied'>, Plan>>,
];
