import { readFileSync } from 'node:fs';
import semver from 'semver';

// `npm ci` warns EBADENGINE when a locked package needs a newer Node than the one the product declares and runs on;
// the lowest Node that package.json accepts must satisfy every locked package.
const root = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
    packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};

describe('declared Node engine', () => {
    it('is satisfied by every locked package', () => {
        const lowest = semver.minVersion(root.engines.node)?.version ?? '';
        const refused = Object.entries(lock.packages)
            .filter(([path, pkg]) => path && !Array.isArray(pkg.engines) && pkg.engines?.node)
            .filter(([, pkg]) => !semver.satisfies(lowest, (pkg.engines as { node: string }).node))
            .map(
                ([path, pkg]) =>
                    `${path.replace(/^.*node_modules\//, '')} needs node ${(pkg.engines as { node: string }).node}`
            );
        expect(lowest).toBe('20.19.0');
        expect(refused).toEqual([]);
    });
});
