import { api } from '../../lib/api';
import { orgQueryOptions } from '../../lib/query';
import * as endpoints from '../../lib/api-operations.gen';

/*
 * Query keys and the one-onboarding query, in a module of their own: the wizard route's loader (in the first
 * page's JavaScript) reads the onboarding without the hooks of queries.ts. The active organization id is
 * always the second part of a key, so a switch never shows another's data.
 */
export const onboardingKeys = {
  list: (activeId: string | null) => ['org', activeId, 'onboardings'] as const,
  one: (activeId: string | null, id: string) => ['org', activeId, 'onboarding', id] as const,
  checklist: (activeId: string | null, id: string) => ['org', activeId, 'onboarding', id, 'checklist'] as const,
};

export const onboardingQueryOptions = (activeId: string | null, id: string) =>
  orgQueryOptions({
    queryKey: onboardingKeys.one(activeId, id),
    queryFn: ({ signal }) => api.call(endpoints.getOnboarding, { params: { id }, signal }),
  });
