import { SaveButton, Toolbar } from 'react-admin';

/** Page-form toolbar: Save only (deleting happens from the list, with confirmation). */
export const FormToolbar = () => (
    <Toolbar>
        <SaveButton alwaysEnable />
    </Toolbar>
);
