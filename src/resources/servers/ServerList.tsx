import { PagePlaceholder } from '../../custom/ui/PagePlaceholder';

/** /servers: servers have no list of their own (spec §2). */
export const ServerList = () => (
    <PagePlaceholder title="Servers" text="Servers are managed from their configuration." />
);
