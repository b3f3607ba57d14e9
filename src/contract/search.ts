import { CALLBACK_STATUSES } from './callback-status';
import { CALL_FILTERS } from './call-filters';
import { extendSearch, idList, oneOf, oneOfOr, pageNumber, presenceText, searchSchema, text, uuid } from './search-params';

/**
 * Search params of every route in the specification's route table (docs/product-spec.md §2, §5).
 * Each field falls back instead of throwing, so a bad URL shows the route's defaults.
 * Not zod: these schemas are in the first page's JavaScript (see search-params.ts).
 */
const optionalText = text;
/** An id filter: anything but an id (an edited URL, an empty value) shows the unfiltered list, as the API refuses it. */
const optionalId = uuid;
/** `orgs` may arrive as an array (TanStack's JSON search encoding) or as a comma list. */
const orgList = idList;
const page = pageNumber;

export const AI_RECOMMENDATIONS = ['PASS', 'FAIL', 'INCONCLUSIVE', 'POTENTIAL'] as const;
export const SOURCE_TYPES = ['call', 'chat'] as const;
export const AGENT_TYPES = ['PRESCREEN', 'SITE_VISIT_SCHEDULING'] as const;
export const CONVERSATION_STATUSES = ['ONGOING', 'COMPLETED'] as const;
export const CONVERSATION_SORTS = ['createdAt:desc', 'createdAt:asc', 'updatedAt:desc', 'updatedAt:asc', 'status'] as const;
export const DASHBOARD_TABS = [
  'funnel-breakdown',
  'prescreen-analytics',
  'patient-satisfaction',
  'trial-lifecycle',
  'trial-matcher',
  'costs',
  'customer-overview',
] as const;
export const SPONSOR_DASHBOARD_TABS = ['overview', 'site-performance', 'forecasting', 'demographics'] as const;

export const signInSearch = searchSchema({ redirect: optionalText });
export const signUpSearch = searchSchema({ redirect: optionalText, invitation: optionalText });
export const orgsSearch = searchSchema({ orgs: orgList });
export const candidatesSearch = searchSchema({ search: optionalText, orgs: orgList });
export const prescreenResultsSearch = searchSchema({
  search: optionalText,
  candidateId: optionalId,
  sourceType: oneOf(SOURCE_TYPES),
  orgs: orgList,
  aiRecommendation: oneOf(AI_RECOMMENDATIONS),
});
export const trialMatcherSearch = searchSchema({ 'gap-analysis': optionalText });
/** The match classes of contract/matching.ts (repeated here: that module brings zod into the first page). */
export const MATCH_CLASS_FILTERS = ['likely', 'possible', 'excluded'] as const;
/**
 * /trial-matcher/{id}: `gap-analysis` (any value, `1` included) shows the gap analysis; the rest filter the ranked
 * list and open one candidate's evidence.
 */
export const trialMatchSearch = searchSchema({
  'gap-analysis': presenceText,
  class: oneOf(MATCH_CLASS_FILTERS),
  criterion: optionalText,
  q: optionalText,
  page,
  candidate: optionalId,
});
export const chatEntrySearch = searchSchema({
  'conversation-id': optionalText,
  'organization-id': optionalText,
  token: optionalText,
});
export const chatSearch = searchSchema({ 'conversation-id': optionalText, token: optionalText });
export const dashboardSearch = searchSchema({
  orgs: orgList,
  from: optionalText,
  to: optionalText,
  preset: optionalText,
  source: optionalText,
  tab: oneOfOr(DASHBOARD_TABS, 'funnel-breakdown'),
});
export const processedRunsSearch = searchSchema({ search: optionalText, orgs: orgList, id: optionalText });
export const smsSearch = searchSchema({ candidateId: optionalId, orgs: orgList });
export const voiceAgentsSearch = searchSchema({
  'agent-type': oneOfOr(AGENT_TYPES, 'PRESCREEN'),
  orgs: orgList,
});
export const chatAgentsSearch = searchSchema({ search: optionalText, orgs: orgList });
/**
 * /admin/onboard/{id}: the wizard's step, so a reload resumes where the admin was. Any text here (the list of
 * steps would weigh on the first page); the wizard shows the onboarding's own step for one it does not know.
 */
export const onboardingSearch = searchSchema({ step: optionalText });
export const chatConversationsSearch = searchSchema({
  search: optionalText,
  status: oneOf(CONVERSATION_STATUSES),
  sortBy: oneOfOr(CONVERSATION_SORTS, 'createdAt:desc'),
  dateFrom: optionalText,
  dateTo: optionalText,
  chatAgentId: optionalId,
  orgs: orgList,
});
export const callsSearch = searchSchema({
  filter: oneOfOr(CALL_FILTERS, 'all'),
  page,
});
/** /admin/callbacks: the spec's filter and page, plus a status filter and, for global admins, orgs. */
export const callbacksSearch = extendSearch(callsSearch, {
  status: oneOf(CALLBACK_STATUSES),
  orgs: orgList,
});
/**
 * The sponsor demo's steps (/admin/demo/sponsors/...): the chosen trial and sites travel in the URL, so a reload
 * or a shared link shows the same flow. `sites` holds trial site ids (not always uuids: any text, checked
 * against the trial's sites by the server).
 */
export const sponsorFlowSearch = searchSchema({ trial: optionalId, sites: idList });
/** The dashboard: the flow, its tab, and the "finish by" date of the forecasting tab (YYYY-MM-DD). */
export const sponsorDashboardSearch = extendSearch(sponsorFlowSearch, {
  tab: oneOfOr(SPONSOR_DASHBOARD_TABS, 'overview'),
  deadline: optionalText,
});
/** /admin/sequences: active (the default), archived or all; orgs for global admins. */
export const SEQUENCE_LIST_FILTERS = ['active', 'archived', 'all'] as const;
export const sequencesSearch = searchSchema({ status: oneOfOr(SEQUENCE_LIST_FILTERS, 'active'), orgs: orgList });
/** The tabs of /admin/sequences/{id}, and the enrollment statuses its Enrollments tab filters by (contract/sequences.ts, repeated: that module brings zod). */
export const SEQUENCE_DETAIL_TABS = ['steps', 'enrollments', 'statistics'] as const;
export const SEQUENCE_ENROLLMENT_STATUSES = ['active', 'paused', 'completed', 'exited'] as const;
/** /admin/sequences/{id}: the tab; the Enrollments tab's status, name search, page and the open timeline; the Statistics tab's version. */
export const sequenceSearch = searchSchema({
  tab: oneOfOr(SEQUENCE_DETAIL_TABS, 'steps'),
  status: oneOf(SEQUENCE_ENROLLMENT_STATUSES),
  q: optionalText,
  page,
  enrollment: optionalId,
  version: pageNumber,
});
