import { z } from 'zod';
import { CALLBACK_STATUSES } from './callbacks';
import { CALL_FILTERS } from './voice';

/**
 * Search params of every route in the specification's route table (spec §2, §5).
 * Each field falls back (`.catch`) instead of throwing, so a bad URL shows the route's defaults.
 */
const optionalText = z.string().optional().catch(undefined);
/** `orgs` may arrive as an array (TanStack's JSON search encoding) or as a comma list. */
const orgList = z
  .union([z.array(z.string()), z.string().transform((value) => value.split(',').filter(Boolean))])
  .optional()
  .catch(undefined);
const page = z.coerce.number().int().min(1).catch(1).optional();

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

export const signInSearch = z.object({ redirect: optionalText });
export const signUpSearch = z.object({ redirect: optionalText, invitation: optionalText });
export const orgsSearch = z.object({ orgs: orgList });
export const candidatesSearch = z.object({ search: optionalText, orgs: orgList });
export const prescreenResultsSearch = z.object({
  search: optionalText,
  candidateId: optionalText,
  sourceType: z.enum(SOURCE_TYPES).optional().catch(undefined),
  orgs: orgList,
  aiRecommendation: z.enum(AI_RECOMMENDATIONS).optional().catch(undefined),
});
export const trialMatcherSearch = z.object({ 'gap-analysis': optionalText });
export const chatEntrySearch = z.object({
  'conversation-id': optionalText,
  'organization-id': optionalText,
  token: optionalText,
});
export const chatSearch = z.object({ 'conversation-id': optionalText, token: optionalText });
export const dashboardSearch = z.object({
  orgs: orgList,
  from: optionalText,
  to: optionalText,
  preset: optionalText,
  source: optionalText,
  tab: z.enum(DASHBOARD_TABS).catch('funnel-breakdown').default('funnel-breakdown'),
});
export const processedRunsSearch = z.object({ search: optionalText, orgs: orgList, id: optionalText });
export const smsSearch = z.object({ candidateId: optionalText, orgs: orgList });
export const voiceAgentsSearch = z.object({
  'agent-type': z.enum(AGENT_TYPES).catch('PRESCREEN').default('PRESCREEN'),
});
export const chatAgentsSearch = z.object({ search: optionalText });
export const chatConversationsSearch = z.object({
  search: optionalText,
  status: z.enum(CONVERSATION_STATUSES).optional().catch(undefined),
  sortBy: z.enum(CONVERSATION_SORTS).catch('createdAt:desc').default('createdAt:desc'),
  dateFrom: optionalText,
  dateTo: optionalText,
  chatAgentId: optionalText,
  orgs: orgList,
});
export const callsSearch = z.object({
  filter: z.enum(CALL_FILTERS).catch('all').default('all'),
  page,
});
/** /admin/callbacks: the spec's filter and page, plus a status filter and, for global admins, orgs. */
export const callbacksSearch = callsSearch.extend({
  status: z.enum(CALLBACK_STATUSES).optional().catch(undefined),
  orgs: orgList,
});
export const sponsorDashboardSearch = z.object({
  tab: z.enum(SPONSOR_DASHBOARD_TABS).catch('overview').default('overview'),
});
