/** A candidate's display name (its own module: route loaders use it, and format.ts carries the phone library). */
export function candidateName(candidate: { firstName: string; lastName: string }): string {
  return [candidate.firstName, candidate.lastName].filter(Boolean).join(' ') || 'Unnamed candidate';
}
