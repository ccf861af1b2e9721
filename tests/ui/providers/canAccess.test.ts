import { canAccess, canAccessPage } from '../../../src/providers/canAccess';

const plain = { is_admin: false, is_super_admin: false };
const admin = { is_admin: true, is_super_admin: false };
const superAdmin = { is_admin: false, is_super_admin: true };

// [who, resource, action, expected]
const matrix: [string, typeof plain | null, string, string, boolean][] = [
    ['nobody', null, 'configurations', 'list', false],
    ['user', plain, 'configurations', 'list', true],
    ['user', plain, 'configurations', 'show', true],
    ['user', plain, 'configurations', 'create', false],
    ['user', plain, 'configurations', 'edit', false],
    ['user', plain, 'servers', 'delete', false],
    ['user', plain, 'notification-channels', 'list', true],
    ['user', plain, 'users', 'list', false],
    ['user', plain, 'companies', 'list', false],
    ['user', plain, 'logger', 'list', false],
    ['admin', admin, 'configurations', 'create', true],
    ['admin', admin, 'monitors', 'edit', true],
    ['admin', admin, 'services', 'delete', true],
    ['admin', admin, 'users', 'list', false],
    ['admin', admin, 'companies', 'edit', false],
    ['admin', admin, 'logger', 'list', false],
    ['super admin', superAdmin, 'users', 'list', true],
    ['super admin', superAdmin, 'users', 'delete', true],
    ['super admin', superAdmin, 'companies', 'create', true],
    ['super admin', superAdmin, 'logger', 'list', true],
    ['super admin', superAdmin, 'configurations', 'delete', true],
];

describe('canAccess', () => {
    it.each(matrix)('%s on %s/%s', (_who, user, resource, action, expected) => {
        expect(canAccess(user, { resource, action })).toBe(expected);
    });
});

describe('canAccessPage', () => {
    it('lets any signed-in user open every page, the super-admin ones included (docs/spec.md §6)', () => {
        expect(canAccessPage(plain, { resource: 'users', action: 'list' })).toBe(true);
        expect(canAccessPage(plain, { resource: 'companies', action: 'edit' })).toBe(true);
        expect(canAccessPage(admin, { resource: 'users', action: 'create' })).toBe(true);
        expect(canAccessPage(null, { resource: 'users', action: 'list' })).toBe(false);
        expect(canAccessPage(plain, { resource: 'configurations', action: 'edit' })).toBe(false);
    });
});
