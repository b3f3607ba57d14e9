import { z } from '@hono/zod-openapi';
import { TimestampSchema } from './common';

/** Slug of the provider's own internal organization (docs/product-spec.md §3); defined with the permission rule. */
export { INTERNAL_ORGANIZATION_SLUG } from './permissions';
/** Name fragments excluded from a global admin's default "all organizations" selection (docs/product-spec.md §3, §6). */
export const DEFAULT_SELECTION_EXCLUDED_NAME_PARTS = ['demo', 'test', 'cohortly'] as const;
export { ACTIVE_ORGANIZATION_STORAGE_KEY } from './headers';
/** Header the web client sends so the server knows an admin's active organization. */
export { ACTIVE_ORGANIZATION_HEADER } from './headers';

export const OrganizationSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    publicId: z.string(),
    name: z.string(),
    memberCount: z.number().int().optional(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .openapi('Organization');
export type Organization = z.infer<typeof OrganizationSchema>;

export const PublicOrganizationSchema = OrganizationSchema.pick({ id: true, name: true, publicId: true }).openapi('PublicOrganization');
export type PublicOrganization = z.infer<typeof PublicOrganizationSchema>;

export const OrganizationListSchema = z.object({ organizations: z.array(OrganizationSchema) });

const organizationName = z
  .string()
  .trim()
  .min(2, 'Organization name must be at least 2 characters')
  .max(120, 'Organization name must be at most 120 characters');

const slug = z
  .string()
  .trim()
  .toLowerCase()
  .min(2)
  .max(60)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Slug may contain lowercase letters, digits and single dashes');

export const CreateOrganizationSchema = z.object({ name: organizationName, slug: slug.optional() }).openapi('CreateOrganization');
export type CreateOrganizationInput = z.infer<typeof CreateOrganizationSchema>;

export const UpdateOrganizationSchema = z
  .object({ name: organizationName.optional(), slug: slug.optional() })
  .refine((value) => value.name !== undefined || value.slug !== undefined, { message: 'Nothing to update: give name or slug' })
  .openapi('UpdateOrganization');
export type UpdateOrganizationInput = z.infer<typeof UpdateOrganizationSchema>;
