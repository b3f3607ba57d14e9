import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ACTIVE_ORGANIZATION_HEADER } from '../../../contract/headers';
import type { CreateTrialInput, Trial, TrialDraft, UpdateTrialInput, UpdateTrialSiteInput } from '../../../contract/trials';
import { api, errorFromResponse, getActiveOrganizationId, operationPath } from '../../lib/api';
import { invalidateOrg, orgQueryOptions, removeOrg } from '../../lib/query';
import { useActiveOrganization } from '../../lib/active-organization';
import { trialKeys, trialQueryOptions, trialsQueryOptions } from './keys';
import * as endpoints from '../../lib/api-operations.gen';

export { trialKeys, trialQueryOptions, trialsQueryOptions } from './keys';

export function useTrialsQuery(orgs?: string[]) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...trialsQueryOptions(activeOrganizationId, orgs), enabled: Boolean(activeOrganizationId) });
}

export function useTrialQuery(trialId: string | undefined) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...trialQueryOptions(activeOrganizationId, trialId ?? ''), enabled: Boolean(activeOrganizationId && trialId) });
}

/** Puts a saved trial in the cache under the current organization and refreshes every trial list. */
function storeTrial(queryClient: QueryClient, trial: Trial) {
  queryClient.setQueryData(trialKeys.detail(getActiveOrganizationId(), trial.id), trial);
  return invalidateOrg(queryClient, undefined, 'trials');
}

/** Where a new trial goes: one organization (global admins choose), or the active organization. */
const targetQuery = (organizationId: string | undefined) => (organizationId ? { organizationIds: organizationId } : undefined);

export function useCreateTrial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ organizationId, input }: { organizationId?: string; input: CreateTrialInput }) =>
      api.call(endpoints.createTrial, { body: input, query: targetQuery(organizationId) }),
    onSuccess: (trial) => storeTrial(queryClient, trial),
    // The form shows the server's message inline.
    meta: { silent: true },
  });
}

/** `silent`: the caller shows failures itself (no toast). */
export function useUpdateTrial({ silent = false }: { silent?: boolean } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ trialId, input }: { trialId: string; input: UpdateTrialInput }) => api.call(endpoints.updateTrial, { params: { trialId }, body: input }),
    onSuccess: (trial) => storeTrial(queryClient, trial),
    meta: { silent },
  });
}

/** POST /reparse: re-reads the criteria's text with the current reader (rules set by a person are kept). */
export function useReparseTrial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (trialId: string) => api.call(endpoints.reparseTrialCriteria, { params: { trialId } }),
    onSuccess: (result) => storeTrial(queryClient, result.trial),
    meta: { silent: true },
  });
}

/** POST /suggestions: the language model's proposals for unread criteria, stored as needing review. */
export function useSuggestRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (trialId: string) => api.call(endpoints.suggestTrialCriteria, { params: { trialId } }),
    onSuccess: (result) => storeTrial(queryClient, result.trial),
    meta: { silent: true },
  });
}

export function useDeleteTrial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (trialId: string) => api.call(endpoints.deleteTrial, { params: { trialId } }),
    onSuccess: (_answer, trialId) => {
      removeOrg(queryClient, undefined, ['trial', trialId]);
      return invalidateOrg(queryClient, undefined, 'trials', 'trial');
    },
  });
}

/**
 * The file's contents, sent to auto-gen. A parsed record goes as `{ study, save }`; text that is not JSON goes
 * as it is, so the server's own 400 ("Malformed JSON…") explains what is wrong.
 */
export type StudyFileContent = { kind: 'json'; study: unknown } | { kind: 'text'; text: string };

async function postAutoGen<T>(content: StudyFileContent, save: boolean, organizationId: string | undefined): Promise<T> {
  // save decides which of the route's two answers comes back: the draft (200) or the saved trial (201).
  if (content.kind === 'json')
    return api.call(endpoints.draftTrialFromRecord, { body: { study: content.study, save }, query: targetQuery(organizationId) }) as Promise<T>;
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' };
  const active = getActiveOrganizationId();
  if (active) headers[ACTIVE_ORGANIZATION_HEADER] = active;
  const query = organizationId ? `?organizationIds=${encodeURIComponent(organizationId)}` : '';
  const response = await fetch(`${operationPath(endpoints.draftTrialFromRecord)}${query}`, {
    method: 'POST',
    headers,
    credentials: 'include',
    body: content.text,
  });
  const raw = await response.text();
  let body: unknown = raw || undefined;
  try {
    body = raw ? JSON.parse(raw) : undefined;
  } catch {
    // keep the text
  }
  if (!response.ok) throw errorFromResponse(response.status, response.statusText, body);
  return body as T;
}

/** Reads a ClinicalTrials.gov record into a draft without saving (200). Errors show inline, not as toasts. */
export function usePreviewStudy() {
  return useMutation({
    mutationFn: ({ content, organizationId }: { content: StudyFileContent; organizationId?: string }) =>
      postAutoGen<TrialDraft>(content, false, organizationId),
    meta: { silent: true },
  });
}

/** Saves the record as a draft trial (201). */
export function useImportStudy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ content, organizationId }: { content: StudyFileContent; organizationId?: string }) => postAutoGen<Trial>(content, true, organizationId),
    onSuccess: (trial) => storeTrial(queryClient, trial),
    meta: { silent: true },
  });
}

/** A page of the trial's sites, our sites first (q searches facility, city, state, postal code, country). */
export function useTrialSitesQuery(trialId: string, page: { q?: string; offset: number; limit: number }, enabled = true) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: trialKeys.sites(activeOrganizationId, trialId, page),
      queryFn: ({ signal }) =>
        api.call(endpoints.listTrialSites, { params: { trialId }, query: { q: page.q, offset: String(page.offset), limit: String(page.limit) }, signal }),
      enabled: enabled && Boolean(activeOrganizationId),
      placeholderData: (previous) => previous,
      meta: { silent: false },
    }),
  );
}

/** Marks a site ours or sets its time zone; the trial and its site pages are read again. */
export function useUpdateTrialSite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ trialId, siteId, input }: { trialId: string; siteId: string; input: UpdateTrialSiteInput }) =>
      api.call(endpoints.updateTrialSite, { params: { trialId, siteId }, body: input }),
    onSuccess: (_site, { trialId }) => invalidateOrg(queryClient, undefined, ['trial', trialId], 'trials'),
  });
}
