// Prints the one line CI reads, `N passed, N failed`, summed over Vitest JSON reports given as arguments.
import { existsSync, readFileSync } from 'node:fs';

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
    for (const r of report.testResults ?? [])
        if (r.status === 'failed' && (r.assertionResults ?? []).length === 0) failed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
