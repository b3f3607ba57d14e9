import { z } from 'zod';
import { MemberRoleSchema, PasswordSchema } from './users';

/** The answer of GET /api/auth/get-session (better-auth's session, extended with organization and isAdmin). */
export const SessionPayloadSchema = z.object({
  session: z.object({ id: z.string(), expiresAt: z.coerce.date(), userId: z.string() }),
  user: z.object({ id: z.string(), name: z.string(), email: z.string(), emailVerified: z.boolean() }),
  organization: z.object({ id: z.string(), slug: z.string(), publicId: z.string(), name: z.string() }).nullable(),
  role: MemberRoleSchema.nullable(),
  isAdmin: z.boolean(),
  /**
   * An internal admin's default active organization: the first of the organization list (docs/product-spec.md §9),
   * so the web app can open a page without waiting for the list (decision 181). Null for other users.
   */
  defaultOrganization: z.object({ id: z.string(), slug: z.string(), publicId: z.string(), name: z.string() }).nullable().optional(),
});
export type SessionPayload = z.infer<typeof SessionPayloadSchema>;

export const SignUpFormSchema = z.object({
  name: z.string().trim().min(1, 'Enter your name').max(120),
  email: z.email('Enter a valid email address'),
  password: PasswordSchema,
  organizationName: z.string().trim().max(120).optional(),
  invitationToken: z.string().optional(),
});
export type SignUpForm = z.infer<typeof SignUpFormSchema>;
/** Sign-up without an invitation creates a research site: its name is required (flagged with the other fields). */
export const SiteSignUpFormSchema = SignUpFormSchema.extend({
  organizationName: z.string().trim().min(2, 'Enter the name of your research site').max(120),
});

/**
 * What a sign-up without an invitation answers, alike for a new and a registered email (decision 121): check your
 * email. Without SMTP (the simulated mail outbox) the mail's link comes with it, since no mail leaves the server.
 */
export const SignUpAnswerSchema = z.object({ status: z.literal('check-your-email'), simulatedMailLink: z.string().optional() });
export type SignUpAnswer = z.infer<typeof SignUpAnswerSchema>;

export const SignInFormSchema = z.object({
  email: z.email('Enter a valid email address'),
  password: z.string().min(1, 'Enter your password'),
});
export type SignInForm = z.infer<typeof SignInFormSchema>;

export const ChangePasswordFormSchema = z
  .object({ currentPassword: z.string().min(1, 'Enter your current password'), newPassword: PasswordSchema, confirmPassword: z.string() })
  .refine((value) => value.newPassword === value.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] });
