/**
 * The permission vocabulary and `can()`, checked in one place: the rule itself lives in the contract
 * (src/contract/permissions.ts) so the web hides exactly what the server refuses. A RequestScope is a
 * PermissionSubject.
 */
export { can, canGrantOwner, type Permission } from '../../contract/permissions';
