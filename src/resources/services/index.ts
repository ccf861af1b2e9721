import SettingsEthernetIcon from '@mui/icons-material/SettingsEthernet';

/** Services have no screens of their own; they are edited from the server detail (ServiceDialog). */
export default {
    icon: SettingsEthernetIcon,
    recordRepresentation: 'name',
};
