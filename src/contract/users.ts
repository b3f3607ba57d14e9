import { z } from '@hono/zod-openapi';
import { OrganizationIdListSchema, TimestampSchema, IdFilterSchema } from './common';

/** Roles inside one organization. Owners and admins manage users; coordinators work the funnel. */
export const MEMBER_ROLES = ['owner', 'admin', 'coordinator'] as const;
export const MemberRoleSchema = z.enum(MEMBER_ROLES);
export type MemberRole = z.infer<typeof MemberRoleSchema>;

export const UserSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    isAdmin: z.boolean(),
    organizationId: z.string().nullable(),
    organizationName: z.string().nullable(),
    role: MemberRoleSchema.nullable(),
    createdAt: TimestampSchema,
  })
  .openapi('User');
export type User = z.infer<typeof UserSchema>;

export const UserListSchema = z.object({ users: z.array(UserSchema), invitations: z.array(z.lazy(() => InvitationSchema)) });

export const ListUsersQuerySchema = z.object({
  orgId: IdFilterSchema.optional(),
  organizationIds: OrganizationIdListSchema,
  orgs: OrganizationIdListSchema,
});

export const UpdateUserSchema = z
  .object({
    name: z.string().trim().min(1).max(120).optional(),
    role: MemberRoleSchema.optional(),
  })
  .refine((value) => value.name !== undefined || value.role !== undefined, { message: 'Nothing to update: give name or role' })
  .openapi('UpdateUser');
export type UpdateUserInput = z.infer<typeof UpdateUserSchema>;

/** Password lengths, also said in the forms' hints. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;
/** The password rule as the forms say it; the server scores strength (auth/password-policy.ts, decision 121). */
export const PASSWORD_RULE = `At least ${PASSWORD_MIN_LENGTH} characters, hard to guess, and without your email or name. Three or four unrelated words work well.`;
export const PasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

/** Invite someone by email (they set their own password), or add them at once with a first password. */
export const AddUserSchema = z
  .object({
    organizationId: z.string().min(1),
    email: z.email('Enter a valid email address').transform((value) => value.toLowerCase()),
    name: z.string().trim().min(1).max(120).optional(),
    role: MemberRoleSchema.default('coordinator'),
    mode: z.enum(['invite', 'add']).default('invite'),
    password: PasswordSchema.optional(),
  })
  .refine((value) => value.mode === 'invite' || (value.password !== undefined && value.name !== undefined), {
    message: 'Adding a user directly needs a name and a first password',
    path: ['password'],
  })
  .openapi('AddUser');
export type AddUserInput = z.infer<typeof AddUserSchema>;

export const InvitationSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    organizationName: z.string(),
    email: z.string(),
    role: MemberRoleSchema,
    status: z.enum(['pending', 'accepted', 'expired']),
    expiresAt: TimestampSchema,
    createdAt: TimestampSchema,
  })
  .openapi('Invitation');
export type Invitation = z.infer<typeof InvitationSchema>;

export const AddUserResultSchema = z.object({
  user: UserSchema.optional(),
  invitation: InvitationSchema.optional(),
  /** Link the invitee opens to sign up; also sent by email through the mail port. */
  invitationUrl: z.string().optional(),
});

/** What an invitation link shows before sign-up (no sign-in needed). */
export const InvitationPreviewSchema = z.object({
  organizationName: z.string(),
  email: z.string(),
  role: MemberRoleSchema,
});
