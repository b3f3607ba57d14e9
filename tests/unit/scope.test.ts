import { describe, expect, it } from 'vitest';
import { isDefaultSelected, selectOrganizations, type RequestScope } from '../../src/server/auth/scope';
import { can } from '../../src/server/auth/permissions';
import { OrganizationIdListSchema } from '../../src/contract/common';

const scope = (overrides: Partial<RequestScope>): RequestScope => ({
  userId: 'u',
  isAdmin: false,
  role: 'coordinator',
  homeOrganizationId: 'a',
  activeOrganization: { id: 'a', slug: 'a', name: 'A', publicId: 'p' },
  global: false,
  reachableOrganizationIds: ['a'],
  defaultOrganizationIds: ['a'],
  ...overrides,
});

describe('default selection', () => {
  it('excludes names containing demo, test or cohortly, in any case', () => {
    expect(isDefaultSelected('Boston Research')).toBe(true);
    expect(isDefaultSelected('Sponsor DEMO')).toBe(false);
    expect(isDefaultSelected('Contest Clinic')).toBe(false); // contains "test": the rule is a plain substring
    expect(isDefaultSelected('Cohortly')).toBe(false);
  });
});

describe('selectOrganizations', () => {
  const global = scope({ global: true, reachableOrganizationIds: ['a', 'b', 'demo'], defaultOrganizationIds: ['a', 'b'] });
  it('gives the default selection when nothing is named', () => {
    expect(selectOrganizations(global)).toEqual(['a', 'b']);
    expect(selectOrganizations(global, undefined, [])).toEqual(['a', 'b']);
  });
  it('narrows to named reachable ids and drops the rest', () => {
    expect(selectOrganizations(global, ['demo', 'zzz'])).toEqual(['demo']);
    expect(selectOrganizations(scope({}), ['b'])).toEqual([]);
    expect(selectOrganizations(scope({}), 'a', ['a'])).toEqual(['a']);
  });
});

describe('permissions', () => {
  it('lets owners and admins manage their own organization only', () => {
    expect(can(scope({ role: 'owner' }), 'user:manage', 'a')).toBe(true);
    expect(can(scope({ role: 'admin' }), 'user:manage', 'b')).toBe(false);
    expect(can(scope({ role: 'coordinator' }), 'user:manage', 'a')).toBe(false);
    expect(can(scope({ role: 'owner' }), 'organization:create')).toBe(false);
    // Internal admins follow the scope rule: creating and deleting organizations needs the Cohortly (global) scope.
    expect(can(scope({ isAdmin: true, global: true }), 'organization:delete')).toBe(true);
    expect(can(scope({ isAdmin: true }), 'organization:delete')).toBe(false);
    expect(can(scope({ isAdmin: true }), 'organization:update', 'b')).toBe(false);
    expect(can(scope({ isAdmin: true }), 'organization:update', 'a')).toBe(true);
  });
});

describe('organization id lists in query strings', () => {
  it('accepts repeated, comma-separated and JSON forms', () => {
    expect(OrganizationIdListSchema.parse('a,b')).toEqual(['a', 'b']);
    expect(OrganizationIdListSchema.parse(['a', 'b,c'])).toEqual(['a', 'b', 'c']);
    expect(OrganizationIdListSchema.parse('["a","b"]')).toEqual(['a', 'b']);
    expect(OrganizationIdListSchema.parse(undefined)).toBeUndefined();
  });
});
