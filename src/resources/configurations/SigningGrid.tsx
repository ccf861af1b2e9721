import { Box, Typography } from '@mui/material';

import type { BlockState, SigningFigures } from '../../../common/validator-card';

const height = (n: number) => n.toLocaleString('en-US');

/**
 * Shape as well as colour tells the cells apart: signed a filled square, missed a hollow red square with a cross,
 * proposed a filled circle. The grid is one image whose name is the summary also written under it.
 */
const CELL: Record<BlockState, object> = {
    signed: { bgcolor: 'success.main' },
    missed: { border: 2, borderColor: 'error.main', bgcolor: 'background.paper', position: 'relative' },
    proposed: { bgcolor: 'info.main', borderRadius: '50%' },
};

export function signingSummary(s: SigningFigures): string {
    const count = (state: BlockState) => s.blocks.filter((b) => b.state === state).length;
    const first = s.blocks[0];
    const last = s.blocks.at(-1);
    const range = first && last ? ` (${height(first.height)}–${height(last.height)})` : '';
    const missed = s.blocks.filter((b) => b.state === 'missed').map((b) => height(b.height));
    const which = missed.length > 0 && missed.length <= 5 ? `: ${missed.join(', ')}` : '';
    const via = s.source ? `; read through ${s.source}` : '';
    return `Last ${s.blocks.length} blocks${range}: ${count('signed')} signed, ${count('missed')} missed${which}, ${count('proposed')} proposed${via}`;
}

/** The last blocks the signing monitor read, oldest first, as signed / missed / proposed cells. */
export const SigningGrid = ({ signing }: { signing: SigningFigures }) => {
    const summary = signingSummary(signing);
    return (
        <Box>
            <Typography>
                <strong>Signing:</strong>
            </Typography>
            <Box role="img" aria-label={summary} sx={{ display: 'flex', flexWrap: 'wrap', gap: '2px', my: 0.5 }}>
                {signing.blocks.map((b) => (
                    <Box
                        key={b.height}
                        aria-hidden
                        data-state={b.state}
                        title={`${height(b.height)}: ${b.state}`}
                        sx={{ width: 10, height: 10, boxSizing: 'border-box', ...CELL[b.state] }}
                    />
                ))}
            </Box>
            <Typography variant="body2">{summary}</Typography>
        </Box>
    );
};
