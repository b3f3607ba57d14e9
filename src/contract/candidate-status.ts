// No zod and no phone library here: the web app's first page loads this (the candidate list's search params).

/** The recruitment funnel: new, contacted, prescreening, passed or failed, visit scheduled, enrolled (or out: not interested, unreachable, do not contact). Each change of status is an activity event the dashboards count (decision 031). */
export const CANDIDATE_STATUSES = [
  'new',
  'contacted',
  'prescreening',
  'prescreen_passed',
  'prescreen_failed',
  'visit_scheduled',
  'enrolled',
  'not_interested',
  'unreachable',
  'do_not_contact',
] as const;
