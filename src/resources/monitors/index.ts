import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';

/** Monitors have no screens of their own; they are edited from configurations and servers. */
export default {
    icon: MonitorHeartIcon,
    recordRepresentation: 'name',
};
