import {
    Autocomplete,
    Box,
    Button,
    Checkbox,
    FormControlLabel,
    MenuItem,
    Card,
    CardContent,
    CardHeader,
    TextField,
} from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { DataTable, useGetList, useNotify } from 'react-admin';

import type { ChannelLink, LinkRouting, NotificationChannel } from '../../../common/entities';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { EmptyTable } from '../../ui/EmptyTable';
import { withServerMessage } from '../../ui/format';
import { LocalDataTable } from '../../ui/LocalDataTable';

export const FETCH_CHANNELS_FAILED = 'Failed to fetch notification channels';

export interface NotificationChannelsPanelProps {
    configurationId: number;
    /** Read-only users see the table without Remove buttons and without the add select. */
    canWrite: boolean;
}

/** Channels linked to the configuration: Id, Type, Name, Enabled, Remove; and a select to link another. */
export const NotificationChannelsPanel = ({ configurationId, canWrite }: NotificationChannelsPanelProps) => {
    const dataProvider = useNodeMonitorDataProvider();
    const notify = useNotify();
    const [selected, setSelected] = useState<NotificationChannel | null>(null);
    // A failed fetch toasts 'Failed to fetch notification channels' (docs/spec.md §8) and the table stays empty.
    const {
        data: links = [],
        refetch,
        isError: linksFailed,
    } = useQuery<ChannelLink[]>({
        queryKey: ['configurations', configurationId, 'notification-channels'],
        queryFn: () => dataProvider.getConfigurationChannels(configurationId),
        retry: false,
    });
    const { data: channels = [], isError: channelsFailed } = useGetList<NotificationChannel>(
        'notification-channels',
        { pagination: { page: 1, perPage: 1000 }, sort: { field: 'name', order: 'ASC' } },
        { enabled: canWrite, retry: false }
    );
    const fetchFailed = linksFailed || channelsFailed;
    useEffect(() => {
        if (fetchFailed) notify(FETCH_CHANNELS_FAILED, { type: 'error' });
    }, [fetchFailed, notify]);
    const linked = new Set(links.map((link) => link.notification_channel_id));
    const options = channels.filter((channel) => !linked.has(channel.id));

    // Each change toasts, then waits for the table to show it; the row's inputs stay disabled until then.
    const change = <A,>(
        run: (arg: A) => Promise<unknown>,
        done: string,
        failed: (error: unknown) => string,
        then?: () => void
    ) => ({
        mutationFn: async (arg: A) => {
            await run(arg);
        },
        onSuccess: async () => {
            notify(done, { type: 'success' });
            then?.();
            await refetch();
        },
        onError: (error: unknown) => notify(failed(error), { type: 'error' }),
    });
    const associate = useMutation(
        change(
            (channel: NotificationChannel) => dataProvider.addConfigurationChannel(configurationId, channel.id),
            'Successfully associated notification channel',
            () => 'Failed to associate notification channel',
            () => setSelected(null)
        )
    );
    const route = useMutation(
        change(
            ({ link, routing }: { link: ChannelLink; routing: LinkRouting }) =>
                dataProvider.updateConfigurationChannel(configurationId, link.id, routing),
            'Notification channel routing saved',
            (error) => withServerMessage('Failed to save notification channel routing', error)
        )
    );
    const remove = useMutation(
        change(
            (link: ChannelLink) => dataProvider.removeConfigurationChannel(configurationId, link.id),
            'Notification channel removed successfully',
            () => 'Error when deleting notification channel'
        )
    );
    const busy = associate.isPending || route.isPending || remove.isPending;

    const add = () => {
        if (!selected) {
            notify('Please select a notification channel', { type: 'error' });
            return;
        }
        associate.mutate(selected);
    };

    return (
        <Card variant="outlined">
            <CardHeader title="Notification Channels" />
            <CardContent>
                <LocalDataTable<ChannelLink>
                    resource="notification-channel-links"
                    data={links}
                    aria-label="Linked notification channels"
                    empty={
                        <EmptyTable
                            label="Linked notification channels"
                            columns={['Id', 'Type', 'Name', 'Enabled', ...(canWrite ? ['Actions'] : [])]}
                            text="No notification channels linked yet"
                        />
                    }
                >
                    <DataTable.Col label="Id" render={(link: ChannelLink) => link.notification_channel.id} />
                    <DataTable.Col label="Type" render={(link: ChannelLink) => link.notification_channel.type} />
                    <DataTable.Col label="Name" render={(link: ChannelLink) => link.notification_channel.name} />
                    <DataTable.Col
                        label="Enabled"
                        render={(link: ChannelLink) => (link.notification_channel.is_enabled ? 'Yes' : 'No')}
                    />
                    {canWrite && (
                        <DataTable.Col
                            label="Actions"
                            align="right"
                            render={(link: ChannelLink) => (
                                <LinkRoutingInputs
                                    link={link}
                                    disabled={busy}
                                    onChange={(routing) => route.mutate({ link, routing })}
                                >
                                    <Button
                                        size="small"
                                        color="error"
                                        disabled={busy}
                                        aria-label={`Remove ${link.notification_channel.name}`}
                                        onClick={() => remove.mutate(link)}
                                    >
                                        Remove
                                    </Button>
                                </LinkRoutingInputs>
                            )}
                        />
                    )}
                </LocalDataTable>
                {canWrite && (
                    <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', mt: 3 }}>
                        <Autocomplete
                            sx={{ flex: 1 }}
                            options={options}
                            value={selected}
                            onChange={(_, channel) => setSelected(channel)}
                            getOptionLabel={(channel) => `${channel.name} (${channel.type})`}
                            isOptionEqualToValue={(option, value) => option.id === value.id}
                            renderInput={(params) => (
                                <TextField
                                    {...params}
                                    label="Notification Channels"
                                    placeholder="Select a notification channel"
                                />
                            )}
                        />
                        <Button variant="contained" disabled={!selected || busy} onClick={add}>
                            Add Channel
                        </Button>
                    </Box>
                )}
            </CardContent>
        </Card>
    );
};

/**
 * Escalation delay in minutes, saved when the field is left: empty sends at once, N sends an incident to this
 * channel only once it stayed unacknowledged N minutes.
 */
const EscalationInput = ({
    link,
    disabled,
    onChange,
}: {
    link: ChannelLink;
    disabled: boolean;
    onChange: (routing: LinkRouting) => void;
}) => {
    const saved = link.escalate_after_minutes === undefined ? '' : String(link.escalate_after_minutes);
    const [value, setValue] = useState(saved);
    useEffect(() => setValue(saved), [saved]);
    const commit = () => {
        if (value.trim() === saved) return;
        onChange({ escalate_after_minutes: value.trim() === '' ? null : Number(value) });
    };
    return (
        <TextField
            size="small"
            type="number"
            label="Escalate after (min)"
            placeholder="at once"
            value={value}
            disabled={disabled}
            onChange={(e) => setValue(e.target.value)}
            onBlur={commit}
            onKeyDown={(e) => {
                if (e.key === 'Enter') commit();
            }}
            sx={{ width: 150 }}
            slotProps={{
                // Shrunk at all times: the placeholder shows, and the label fits the field's width.
                inputLabel: { shrink: true },
                htmlInput: { min: 1, 'aria-label': `Escalate to ${link.notification_channel.name} after minutes` },
            }}
        />
    );
};

/**
 * A link's routing, before its Remove button (`children`): which severities it sends (Error only, or warnings too),
 * whether recoveries and reminders go to this channel, and after how long unacknowledged an incident escalates to
 * it. Each control keeps its width and they wrap onto more lines where the cell is narrow, so no label is cut.
 */
const LinkRoutingInputs = ({
    link,
    disabled,
    onChange,
    children,
}: {
    link: ChannelLink;
    disabled: boolean;
    onChange: (routing: LinkRouting) => void;
    children: ReactNode;
}) => (
    <Box
        sx={{
            display: 'flex',
            flexWrap: 'wrap',
            justifyContent: 'flex-end',
            alignItems: 'center',
            columnGap: 1,
            rowGap: 1.5,
            '& > *': { flexShrink: 0 },
        }}
    >
        <TextField
            select
            size="small"
            fullWidth={false}
            label="Sends"
            value={link.min_severity ?? 'critical'}
            disabled={disabled}
            onChange={(e) => onChange({ min_severity: e.target.value as LinkRouting['min_severity'] })}
            slotProps={{ htmlInput: { 'aria-label': `Severity sent to ${link.notification_channel.name}` } }}
        >
            <MenuItem value="critical">Errors</MenuItem>
            <MenuItem value="warning">Errors and warnings</MenuItem>
        </TextField>
        <FormControlLabel
            label="Recoveries"
            control={
                <Checkbox
                    size="small"
                    checked={link.send_recoveries ?? true}
                    disabled={disabled}
                    onChange={(e) => onChange({ send_recoveries: e.target.checked })}
                    slotProps={{ input: { 'aria-label': `Send recoveries to ${link.notification_channel.name}` } }}
                />
            }
        />
        <FormControlLabel
            label="Reminders"
            control={
                <Checkbox
                    size="small"
                    checked={link.send_reminders ?? true}
                    disabled={disabled}
                    onChange={(e) => onChange({ send_reminders: e.target.checked })}
                    slotProps={{ input: { 'aria-label': `Send reminders to ${link.notification_channel.name}` } }}
                />
            }
        />
        <EscalationInput link={link} disabled={disabled} onChange={onChange} />
        {children}
    </Box>
);
