import { BooleanInput, PasswordInput, ReferenceInput, required, SelectInput, TextInput, useNotify } from 'react-admin';

import type { User } from '../../../common/entities';
import { retryUnlessClientError } from '../../ui/retry';

export const USERNAME_REQUIRED = 'Username is required';
export const COMPANY_REQUIRED = 'Please select a company';
/** Password message of the page form; the list dialog says 'Password is required for new users'. */
export const PAGE_PASSWORD_REQUIRED = 'Please enter a password';
export const DIALOG_PASSWORD_REQUIRED = 'Password is required for new users';
/** Toast of a company picker whose companies could not be loaded (docs/spec.md §8). */
export const COMPANIES_LOAD_FAILED = 'Failed to load data!';

/** A super admin sees every company and needs none (the account created at first start has none). */
const validateCompany = (value: unknown, values: { is_super_admin?: boolean }) =>
    values?.is_super_admin || (value !== null && value !== undefined && value !== '') ? undefined : COMPANY_REQUIRED;

const validateUsername = (value: unknown) =>
    typeof value === 'string' && value.trim() !== '' ? undefined : USERNAME_REQUIRED;

export const userDefaults = {
    username: '',
    raw_password: '',
    company_id: null,
    is_active: true,
    is_admin: false,
    is_super_admin: false,
};

/** A user record as the form edits it: `company_id` filled from the nested company when absent. */
export const toUserFormValues = (user: User) => ({ ...user, company_id: user.company_id ?? user.company?.id ?? null });

/** The body sent for a user; raw_password only when filled in (docs/spec.md §3). */
export const toUserBody = (data: Partial<User> & { raw_password?: string }) => {
    const body: Record<string, unknown> = {
        username: (data.username ?? '').trim(),
        is_active: data.is_active ?? true,
        is_admin: data.is_admin ?? false,
        is_super_admin: data.is_super_admin ?? false,
        company_id: data.company_id ?? null,
    };
    if (data.raw_password) body.raw_password = data.raw_password;
    return body;
};

export interface UserInputsProps {
    /** On add a password is required and shown; on edit it is not shown. */
    creating: boolean;
    passwordRequiredMessage?: string;
}

/** Username, Password (add only), company picker, Active, Admin, Super Admin. */
export const UserInputs = ({ creating, passwordRequiredMessage = PAGE_PASSWORD_REQUIRED }: UserInputsProps) => {
    const notify = useNotify();
    // useGetList (under ReferenceInput) takes onError, though ReferenceInput's queryOptions type omits it.
    const companiesQuery = {
        retry: retryUnlessClientError,
        onError: () => notify(COMPANIES_LOAD_FAILED, { type: 'error' }),
    };
    return (
        <>
            <TextInput source="username" label="Username" validate={validateUsername} fullWidth />
            {creating && (
                <PasswordInput
                    source="raw_password"
                    label="Password"
                    validate={required(passwordRequiredMessage)}
                    fullWidth
                />
            )}
            <ReferenceInput
                source="company_id"
                reference="companies"
                perPage={1000}
                sort={{ field: 'name', order: 'ASC' }}
                queryOptions={companiesQuery}
            >
                <SelectInput
                    label="Company"
                    optionText="name"
                    validate={validateCompany}
                    emptyText="Select a company"
                    fullWidth
                />
            </ReferenceInput>
            <BooleanInput source="is_active" label="Active" />
            <BooleanInput source="is_admin" label="Admin" />
            <BooleanInput source="is_super_admin" label="Super Admin" />
        </>
    );
};
