/** Formatting shared by the sponsor demo's steps. */

export const count = (value: number) => value.toLocaleString('en-US');
export const percent = (share: number | null | undefined, digits = 0) => (share === null || share === undefined ? '—' : `${(share * 100).toFixed(digits)}%`);
export const decimal = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? '—' : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });

/** "Mar 3, 2027" from an ISO date (YYYY-MM-DD), read as a calendar date. */
export function formatDay(day: string | null | undefined): string {
  if (!day) return '—';
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : date.toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });
}

export const siteWhere = (site: { city: string | null; region: string | null }) => [site.city, site.region].filter(Boolean).join(', ');

/** The funnel as a chain (each step within the one before): every candidate linked to the trial, then each step. */
export const FUNNEL_CHAIN = [
  ['candidates', 'Candidates'],
  ['contacted', 'Contacted'],
  ['prescreened', 'Prescreened'],
  ['passed', 'Passed'],
  ['booked', 'Booked'],
  ['enrolled', 'Enrolled'],
] as const;

/**
 * A site's columns: the chain after its candidates, then the pool. The pool counts who is still in play now (not
 * screened out, opted out or declined), so it is no step of the chain: shown before "Contacted" it read as a
 * funnel whose second step was larger than its first (decision 160).
 */
export const FUNNEL_STEPS = [...FUNNEL_CHAIN.slice(1), ['pool', 'Still in the pool']] as const;

export const DIMENSION_LABELS = { age: 'Age', sex: 'Sex', ethnicity: 'Ethnicity', race: 'Race', language: 'Preferred language' } as const;
