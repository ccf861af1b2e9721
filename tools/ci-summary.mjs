// Prints the one line CI reads, `N passed, N failed`, summed over Vitest JSON reports given as arguments. Above it,
// one line per failed test with its first error line: the passes' own output can scroll out of what CI keeps.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const firstLine = (text) =>
    String(text ?? '')
        .split('\n')
        .find((l) => l.trim() !== '') ?? '';

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
    if (!existsSync(file)) {
        console.error(`missing report ${file}: counted as one failure`);
        failed++;
        continue;
    }
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed += report.numPassedTests ?? 0;
    failed += (report.numFailedTests ?? 0) + (report.numTodoTests ?? 0) + (report.numPendingTests ?? 0);
    // A file that fails to load has no tests in it but must not pass silently.
    for (const r of report.testResults ?? []) {
        const where = relative(process.cwd(), r.name ?? '?');
        const tests = r.assertionResults ?? [];
        if (r.status === 'failed' && tests.length === 0) {
            failed++;
            console.log(`FAILED ${file}: ${where}: ${firstLine(r.message)}`);
        }
        for (const a of tests)
            if (a.status === 'failed')
                console.log(`FAILED ${file}: ${where} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
