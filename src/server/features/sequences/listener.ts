import type { FunnelListener } from '../../funnel-signals';
import { enrollOnTrigger } from './enroll';
import { exitCandidateSequences, exitOnFunnelChange } from './exits';

/** How outreach sequences follow the funnel: a trigger enrolls, a status change, a booking, a reply or STOP ends. */
export const sequenceFunnelListener: FunnelListener = {
  triggered: (tx, organizationId, trigger, candidateIds, trialIds) => enrollOnTrigger(tx, organizationId, trigger, candidateIds, trialIds),
  funnelChanged: (tx, candidateId, values) => exitOnFunnelChange(tx, candidateId, values),
  answered: (tx, candidateId, answer) => exitCandidateSequences(tx, candidateId, answer),
};
