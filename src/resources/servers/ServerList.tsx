import { PagePlaceholder } from '../../ui/PagePlaceholder';

/** /servers: servers have no list of their own (docs/spec.md §2). */
export const ServerList = () => (
    <PagePlaceholder title="Servers" text="Servers are managed from their configuration." />
);
