// A plain constant (no zod): the route search params, in the first page's JavaScript, use it.
export const CALLBACK_STATUSES = ['pending', 'calling', 'done', 'failed', 'cancelled'] as const;
