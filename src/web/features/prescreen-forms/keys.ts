import { api } from '../../lib/api';
import { orgQueryOptions } from '../../lib/query';
import * as endpoints from '../../lib/api-operations.gen';

/*
 * Query keys and the read queries, in a module of their own: the form route's loader (in the first page's
 * JavaScript) reads the form without the hooks of queries.ts.
 */
/** The active organization id is always the second part of a key, so a switch never shows another's data. */
export const prescreenFormKeys = {
  list: (activeId: string | null, params: PrescreenFormListParams) => ['org', activeId, 'prescreen-forms', params] as const,
  detail: (activeId: string | null, id: string) => ['org', activeId, 'prescreen-form', id] as const,
};

/** `orgs` narrows a global admin's list (none: the server's default selection); the server drops any out of reach. */
export interface PrescreenFormListParams {
  trialId?: string;
  orgs?: string[];
}

export function prescreenFormsQueryOptions(activeId: string | null, params: PrescreenFormListParams = {}) {
  return orgQueryOptions({
    queryKey: prescreenFormKeys.list(activeId, params),
    queryFn: ({ signal }) => api.call(endpoints.listPrescreenForms, { query: { trialId: params.trialId, orgs: params.orgs }, signal }),
  });
}

export function prescreenFormQueryOptions(activeId: string | null, id: string) {
  return orgQueryOptions({
    queryKey: prescreenFormKeys.detail(activeId, id),
    queryFn: ({ signal }) => api.call(endpoints.getPrescreenForm, { params: { id }, signal }),
  });
}
