// A plain constant (no zod): the route search params, in the first page's JavaScript, use it.
export const CALL_FILTERS = ['all', 'failedPrescreen', 'failedScheduling'] as const;
