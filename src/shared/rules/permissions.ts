/**
 * Roles and permissions, exactly as the specification's table (both documents agree).
 * Root is not listed there; it holds every permission (docs/decisions.md).
 */
export const roles = ['root', 'admin', 'firm', 'lawyer', 'customer'] as const;
export type Role = (typeof roles)[number];

export const permissions = [
  'crudFirm',
  'crudLawyer',
  'crudClients',
  'crudSolicitors',
  'readApplications',
  'readApplication',
  'createApplication',
  'updateApplication',
] as const;
export type Permission = (typeof permissions)[number];

export const permissionsByRole: Readonly<Record<Role, readonly Permission[]>> = {
  root: permissions,
  admin: ['crudFirm', 'crudLawyer', 'crudClients', 'crudSolicitors', 'readApplications', 'readApplication'],
  lawyer: ['createApplication', 'updateApplication', 'crudClients', 'readApplications', 'readApplication'],
  firm: ['crudLawyer', 'crudClients', 'readApplications', 'readApplication'],
  customer: ['readApplication', 'readApplications', 'updateApplication'],
};

/** The provider's staff: they review, accept, approve and pay. */
const staffRoles: readonly Role[] = ['root', 'admin'];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (roles as readonly string[]).includes(value);
}

export function isStaff(role: Role): boolean {
  return staffRoles.includes(role);
}

/** A route or call is allowed only when the role holds every listed permission. */
export function hasPermissions(role: Role, required: readonly Permission[]): boolean {
  const held = permissionsByRole[role];
  return required.every((p) => held.includes(p));
}
