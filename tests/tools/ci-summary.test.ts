import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// CI keeps only the end of the output: the failed tests must be named there, above the count.
describe('ci-summary', () => {
    it('names each failed test and a file that did not load above the one count line', () => {
        const dir = mkdtempSync(join(tmpdir(), 'ci-summary-'));
        const report = join(dir, 'report.json');
        writeFileSync(
            report,
            JSON.stringify({
                numPassedTests: 3,
                numFailedTests: 1,
                testResults: [
                    {
                        name: join(process.cwd(), 'tests/a.test.ts'),
                        status: 'failed',
                        assertionResults: [
                            {
                                fullName: 'x does y',
                                status: 'failed',
                                failureMessages: ['\nAssertionError: 1 ≠ 2\n  at a'],
                            },
                            { fullName: 'z', status: 'passed' },
                        ],
                    },
                    {
                        name: join(process.cwd(), 'tests/b.test.ts'),
                        status: 'failed',
                        message: 'Error: no load\n',
                        assertionResults: [],
                    },
                ],
            })
        );
        const { status: code, stdout: out } = spawnSync('node', ['tools/ci-summary.mjs', report], { encoding: 'utf8' });
        expect(code).toBe(1);
        expect(out.trimEnd().split('\n')).toEqual([
            `FAILED ${report}: tests/a.test.ts > x does y: AssertionError: 1 ≠ 2`,
            `FAILED ${report}: tests/b.test.ts: Error: no load`,
            '3 passed, 2 failed',
        ]);
    });
});
