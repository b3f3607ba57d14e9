import { describe, expect, it } from 'vitest';
import { can, canGrantOwner, isGlobalScope, type PermissionSubject } from '../../src/contract/permissions';
import { can as serverCan } from '../../src/server/auth/permissions';
import { ApiRequestError } from '../../src/web/lib/api';
import { isOrgQuery, retryUnlessClientError } from '../../src/web/lib/query';

const subject = (overrides: Partial<PermissionSubject>): PermissionSubject => ({
  isAdmin: false,
  role: 'coordinator',
  homeOrganizationId: 'a',
  global: false,
  reachableOrganizationIds: ['a'],
  ...overrides,
});

describe('the permission rule shared by server and web', () => {
  it('is the one the server checks', () => {
    expect(serverCan).toBe(can);
  });

  it('lets owners and admins manage their own organization only, and only owners hand out the owner role', () => {
    expect(can(subject({ role: 'admin' }), 'user:manage', 'a')).toBe(true);
    expect(can(subject({ role: 'admin' }), 'trial:delete', 'b')).toBe(false);
    expect(can(subject({ role: 'coordinator' }), 'trial:delete', 'a')).toBe(false);
    expect(canGrantOwner(subject({ role: 'admin' }))).toBe(false);
    expect(canGrantOwner(subject({ role: 'owner' }))).toBe(true);
    expect(canGrantOwner(subject({ isAdmin: true, role: null }))).toBe(true);
  });

  it('lets an internal admin act within reach: the active organization, or every one from Cohortly', () => {
    const admin = subject({ isAdmin: true, role: null, homeOrganizationId: 'cohortly', reachableOrganizationIds: ['b'] });
    expect(can(admin, 'user:manage', 'b')).toBe(true);
    expect(can(admin, 'trial:delete', 'c')).toBe(false);
    expect(can({ ...admin, global: true, reachableOrganizationIds: ['b', 'c'] }, 'trial:delete', 'c')).toBe(true);
    expect(isGlobalScope(true, 'Cohortly')).toBe(true);
    expect(isGlobalScope(false, 'cohortly')).toBe(false);
    expect(isGlobalScope(true, 'site-b')).toBe(false);
  });
});

describe('organization query keys', () => {
  const key = ['org', 'a', 'trial', 't1', 'sites', { offset: 0 }];
  it('match by kind, by kind and id, and by active organization', () => {
    expect(isOrgQuery(key, undefined, ['trial'])).toBe(true);
    expect(isOrgQuery(key, undefined, [['trial', 't1']])).toBe(true);
    expect(isOrgQuery(key, undefined, [['trial', 't2'], 'trials'])).toBe(false);
    expect(isOrgQuery(key, 'b', ['trial'])).toBe(false);
    expect(isOrgQuery(key, 'a', [])).toBe(true);
    expect(isOrgQuery(['organizations', 'list', 'u'], undefined, [])).toBe(false);
  });

  it('retry once, but not after a client error', () => {
    expect(retryUnlessClientError(0, new Error('network'))).toBe(true);
    expect(retryUnlessClientError(1, new Error('network'))).toBe(false);
    expect(retryUnlessClientError(0, new ApiRequestError('Not Found', 404, 'Not Found', undefined))).toBe(false);
  });
});
