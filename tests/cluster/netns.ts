import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { startTcpForwarder, type TcpForwarder } from '../support/tcp-forwarder';

/**
 * A network namespace a test creates (CI runs as root): a probe started in it reaches the host through one veth
 * pair. The host side holds two addresses: `hostIp` (where the test forwards Redis) and `nodeIp` (where the chain
 * simulator listens), so the namespace's way to the node can be cut while its way to the queue stays.
 */
export interface Netns {
    name: string;
    hostIp: string;
    nodeIp: string;
    /** Forwards `hostIp:<port>` to `target` (the host's Redis listens on loopback only); returns the port. */
    forward(target: { host: string; port: number }): Promise<number>;
    /** Cuts the namespace's route to the node: every connection there fails at once. */
    cutNode(): void;
    /** Gives the namespace its route to the node back. */
    restoreNode(): void;
    close(): Promise<void>;
}

function ip(...args: string[]): void {
    const run = spawnSync('ip', args, { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`ip ${args.join(' ')}: ${run.stderr}`);
}

export async function createNetns(): Promise<Netns> {
    const id = randomInt(1, 250);
    const tag = `${process.pid % 10_000}x${id}`;
    const name = `nm-probe-${tag}`;
    const [hostIf, nsIf] = [`nmh${tag}`, `nmn${tag}`];
    const [hostIp, nsIp, nodeIp] = [`10.231.${id}.1`, `10.231.${id}.2`, `10.232.${id}.1`];
    ip('netns', 'add', name);
    ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf);
    ip('link', 'set', nsIf, 'netns', name);
    ip('addr', 'add', `${hostIp}/30`, 'dev', hostIf);
    ip('addr', 'add', `${nodeIp}/32`, 'dev', hostIf);
    ip('link', 'set', hostIf, 'up');
    const inNs = (...args: string[]) => ip('netns', 'exec', name, 'ip', ...args);
    inNs('addr', 'add', `${nsIp}/30`, 'dev', nsIf);
    inNs('link', 'set', nsIf, 'up');
    inNs('link', 'set', 'lo', 'up');
    inNs('route', 'add', 'default', 'via', hostIp);
    const forwarders: TcpForwarder[] = [];
    return {
        name,
        hostIp,
        nodeIp,
        async forward(target) {
            const forwarder = await startTcpForwarder(target, { host: hostIp });
            forwarders.push(forwarder);
            return forwarder.port;
        },
        cutNode() {
            inNs('route', 'add', 'prohibit', `${nodeIp}/32`);
        },
        restoreNode() {
            inNs('route', 'del', 'prohibit', `${nodeIp}/32`);
        },
        async close() {
            await Promise.all(forwarders.map((f) => f.close()));
            spawnSync('ip', ['link', 'del', hostIf]);
            spawnSync('ip', ['netns', 'del', name]);
        },
    };
}
