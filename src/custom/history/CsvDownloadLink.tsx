import DownloadIcon from '@mui/icons-material/Download';
import { Button } from '@mui/material';
import type { MouseEvent } from 'react';
import { type Identifier, useNotify } from 'react-admin';

import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { type HistoryRange, monitorHistoryCsvPath } from '../../providers/history';
import { apiUrl } from '../../providers/httpClient';
import { errorReason } from '../../ui/format';

export const CSV_FAILED = 'Failed to download the history';

/**
 * "Download CSV": a real link to the export (its address can be copied), but a click fetches it with the
 * bearer token, which the browser would not send on its own, and saves the answer as a file.
 */
export const CsvDownloadLink = ({ monitorId, range }: { monitorId: Identifier; range: HistoryRange }) => {
    const dataProvider = useNodeMonitorDataProvider();
    const notify = useNotify();
    const fileName = `monitor-${monitorId}-history.csv`;
    const download = async (event: MouseEvent) => {
        event.preventDefault();
        try {
            const blob = await dataProvider.getMonitorHistoryCsv(monitorId, range);
            const url = URL.createObjectURL(blob);
            const anchor = Object.assign(document.createElement('a'), { href: url, download: fileName });
            anchor.click();
            URL.revokeObjectURL(url);
        } catch (error) {
            notify(`${CSV_FAILED}: ${errorReason(error)}`, { type: 'error' });
        }
    };
    return (
        <Button
            component="a"
            href={apiUrl(monitorHistoryCsvPath(monitorId, range))}
            download={fileName}
            onClick={download}
            size="small"
            startIcon={<DownloadIcon />}
        >
            Download CSV
        </Button>
    );
};
