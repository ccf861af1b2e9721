import { buildDigest, DIGEST_MAX_CHARS, type DigestRow } from '../../../server/notify/digest';
import { SUMMARY_MAX } from '../../../server/notify/summary';

const HEADING = /^📋 <b>DIGEST<\/b>: (\d+) notifications?$/;

/** The lines of a digest below its heading and blank line. */
function linesOf(text: string): string[] {
    const [heading, blank, ...lines] = text.split('\n');
    expect(heading).toMatch(HEADING);
    expect(blank).toBe('');
    expect(Number(HEADING.exec(heading ?? '')?.[1])).toBe(lines.length);
    return lines;
}

const summaryRow = (id: number, width = 150): DigestRow => ({
    id,
    text: `<b>ALERT</b> full message ${id}\nmore`,
    summary: `🔴 row ${id} `.padEnd(width, 'x'),
});

describe('buildDigest', () => {
    it('fills one message up to the limit with a prefix of the rows, and every row lands in exactly one message', () => {
        const rows = Array.from({ length: 500 }, (_, i) => summaryRow(i + 1, SUMMARY_MAX));
        const seen: number[] = [];
        let rest = rows;
        let messages = 0;
        while (rest.length > 0) {
            const digest = buildDigest(rest);
            messages++;
            expect(digest.text.length).toBeLessThanOrEqual(DIGEST_MAX_CHARS);
            // Full: the next line would not have fitted.
            if (digest.rowIds.length < rest.length)
                expect(digest.text.length + 1 + SUMMARY_MAX).toBeGreaterThan(DIGEST_MAX_CHARS);
            // A prefix, in id order.
            expect(digest.rowIds).toEqual(rest.slice(0, digest.rowIds.length).map((r) => r.id));
            expect(linesOf(digest.text)).toEqual(rest.slice(0, digest.rowIds.length).map((r) => r.summary));
            seen.push(...digest.rowIds);
            rest = rest.slice(digest.rowIds.length);
        }
        expect(seen).toEqual(rows.map((r) => r.id));
        // About 13 lines of 300 characters per message.
        expect(messages).toBeLessThanOrEqual(Math.ceil(500 / 12));
    });

    it('states the count of the rows it holds', () => {
        const digest = buildDigest([summaryRow(1, 40)]);
        expect(digest.text.split('\n')[0]).toBe('📋 <b>DIGEST</b>: 1 notification');
        expect(buildDigest([summaryRow(1, 40), summaryRow(2, 40)], 200).text).toMatch(
            /^📋 <b>DIGEST<\/b>: 2 notifications\n/
        );
    });

    it('falls back to the first line of the text, as escaped plain text', () => {
        const rows: DigestRow[] = [
            { id: 1, text: '<b>ALERT</b> Block height\nConfiguration: Mainnet', summary: null },
            { id: 2, text: '<i>Incident &lt;x&gt; &amp; co, spans\nlines</i>', summary: null },
            { id: 3, text: 'stray & ampersand', summary: null },
            { id: 4, text: '\nfirst line empty', summary: '' },
            { id: 5, text: 'ignored', summary: '✅ summary &amp; used' },
        ];
        const lines = linesOf(buildDigest(rows).text);
        expect(lines).toEqual([
            'ALERT Block height',
            // The <i> closing on a later line would make Telegram refuse the whole digest: tags go.
            'Incident &lt;x&gt; &amp; co, spans',
            'stray &amp; ampersand',
            'notification #4',
            '✅ summary &amp; used',
        ]);
    });

    it('keeps any single line short, so one row can never block a digest', () => {
        const long = '<b>x</b> &amp; '.repeat(1000);
        const digest = buildDigest([
            { id: 1, text: long, summary: null },
            { id: 2, text: 'x', summary: `${'y'.repeat(5000)}<b>` },
        ]);
        const lines = linesOf(digest.text);
        expect(digest.rowIds).toEqual([1, 2]);
        for (const line of lines) {
            expect(line.length).toBeLessThanOrEqual(SUMMARY_MAX);
            expect(line).not.toMatch(/<|>/);
            expect(line).not.toMatch(/&(?!amp;|lt;|gt;)/);
        }
        // Even a limit smaller than one line takes the first row rather than none.
        expect(buildDigest([summaryRow(1), summaryRow(2)], 50).rowIds).toEqual([1]);
    });
});
