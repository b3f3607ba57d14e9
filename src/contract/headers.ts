/** The header naming the active organization (no zod here: the web app's API client, in every page, uses it). */
export const ACTIVE_ORGANIZATION_HEADER = 'x-organization-id';
/** Browser local-storage key for an admin's active organization (docs/product-spec.md §9). */
export const ACTIVE_ORGANIZATION_STORAGE_KEY = 'cohortly-active-org-id';
