import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SessionPayload } from '../../src/contract/session';

let activeOrganizationFromSession: typeof import('../../src/web/lib/active-organization').activeOrganizationFromSession;
let stored: string | null = null;
const browser = {
  location: { origin: 'http://localhost:3000', href: 'http://localhost:3000/' },
  localStorage: { getItem: () => stored },
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
};
beforeAll(async () => {
  // The web modules read the page's address when loaded (the auth client).
  vi.stubGlobal('window', browser);
  ({ activeOrganizationFromSession } = await import('../../src/web/lib/active-organization'));
});

const cohortly = { id: 'org-cohortly', slug: 'cohortly', publicId: 'P1', name: 'Cohortly' };
const demo = { id: 'org-demo', slug: 'demo-research-site', publicId: 'P2', name: 'Demo Research Site' };
const lakeside = { id: 'org-lakeside', slug: 'lakeside', publicId: 'P3', name: 'Lakeside' };

const session = (overrides: Partial<SessionPayload>): SessionPayload => ({
  session: { id: 's', userId: 'u', expiresAt: new Date() },
  user: { id: 'u', name: 'A', email: 'a@example.test', emailVerified: true },
  organization: cohortly,
  role: 'owner',
  isAdmin: true,
  defaultOrganization: demo,
  ...overrides,
});

function storeChoice(id: string | null) {
  stored = id;
}

afterEach(() => storeChoice(null));

// Decision 181: a page opens before the organization list arrives only when the session alone says where it works.
describe('the active organization before the organization list arrives', () => {
  it("is a user's own organization", () => {
    expect(activeOrganizationFromSession(session({ isAdmin: false, organization: lakeside, defaultOrganization: null }))).toEqual(lakeside);
  });

  it("is an admin's default (the list's first) when nothing is stored", () => {
    storeChoice(null);
    expect(activeOrganizationFromSession(session({}))).toEqual(demo);
  });

  it("is an admin's stored choice when the session names it (their own, or the default)", () => {
    storeChoice(cohortly.id);
    expect(activeOrganizationFromSession(session({}))).toEqual(cohortly);
    storeChoice(demo.id);
    expect(activeOrganizationFromSession(session({}))).toEqual(demo);
  });

  it('is unknown for any other stored choice, which only the list can confirm (it may have been deleted)', () => {
    storeChoice(lakeside.id);
    expect(activeOrganizationFromSession(session({}))).toBeNull();
  });
});
