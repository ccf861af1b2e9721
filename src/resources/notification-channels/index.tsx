import NotificationsIcon from '@mui/icons-material/Notifications';

import { lazyNamed } from '../../lazyNamed';

const NotificationChannelList = lazyNamed(() => import('./NotificationChannelList'), 'NotificationChannelList');

export default {
    list: NotificationChannelList,
    icon: NotificationsIcon,
    recordRepresentation: 'name',
};
