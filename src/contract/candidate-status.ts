// No zod and no phone library here: the web app's first page loads this (the candidate list's search params).

/** The recruitment funnel (guide §1). A candidate's status and its history are the truth dashboards use. */
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
