import { z } from 'zod';

/**
 * Sign in with another account (docs/api.md#sign-in-with-another-account): Google, GitHub,
 * Microsoft and any OpenID Connect provider the operator configures, in the environment or the
 * console. A provider is named everywhere by its key.
 */
export const PROVIDER_KINDS = ['google', 'github', 'microsoft', 'oidc'] as const;
export const ProviderKindSchema = z.enum(PROVIDER_KINDS);
export type ProviderKind = z.infer<typeof ProviderKindSchema>;

export const ProviderKeySchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'providerKeyInvalid');

/** GET /api/Account/GetProviderListAll: one enabled provider, as the login page shows it. */
export const ProviderSchema = z.object({
  providerKey: z.string(),
  displayName: z.string(),
  kind: ProviderKindSchema,
  /** The icon to show: the kind's own mark (google, github, microsoft) or a generic key for oidc. */
  icon: z.string(),
});
export type Provider = z.infer<typeof ProviderSchema>;
export const ProviderListSchema = z.object({ list: z.array(ProviderSchema) });
export type ProviderList = z.infer<typeof ProviderListSchema>;

/**
 * GET /api/Account/GetProviderByAction: starts a sign-in (action login, signed out) or a link of
 * the signed-in account (action link). returnTo is a path on this server the browser comes back to
 * (the login page with its own parameters, or the settings page); anything else is refused.
 */
export const ProviderActionQuerySchema = z.object({
  providerKey: ProviderKeySchema,
  action: z.enum(['login', 'link']).default('login'),
  returnTo: z
    .string()
    .trim()
    .max(2000)
    .refine((v) => /^\/(?![/\\])/.test(v), 'returnToInvalid')
    .default('/login'),
});
export type ProviderActionQuery = z.input<typeof ProviderActionQuerySchema>;

/** The provider's authorisation address to send the browser to (with state, nonce and PKCE S256). */
export const ProviderActionSchema = z.object({ url: z.string() });

/**
 * What the callback adds to returnTo when it sends the browser back:
 * - providerTempKey: signed in; the single-use temp key (as /api/Account/Login answers)
 * - providerLink + providerEmail + providerName: an account with this verified e-mail exists; link
 *   only after the person confirms (AutoLinkWeb)
 * - providerLinked: the signed-in account was linked (action link)
 * - providerError: one of PROVIDER_ERRORS, shown in the person's language
 */
export const PROVIDER_RETURN_PARAMS = ['providerTempKey', 'providerLink', 'providerEmail', 'providerName', 'providerLinked', 'providerError'] as const;

export const PROVIDER_ERRORS = [
  /** The sign-in expired (10 minutes), was already used, or was started in another browser. */
  'stateInvalid',
  /** The provider refused or the code was already used: start again. */
  'providerFailed',
  /** The person cancelled at the provider. */
  'cancelled',
  /** The provider gave no e-mail. */
  'noEmail',
  /** The provider's e-mail names an existing account but the provider does not say it is verified. */
  'emailNotVerified',
  /** This provider identity is already linked to another account. */
  'linkedElsewhere',
  /** The account is closed. */
  'accountClosed',
  /** The provider is disabled or unknown. */
  'providerUnavailable',
] as const;
export type ProviderError = (typeof PROVIDER_ERRORS)[number];

/**
 * POST /api/User/AutoLinkWeb: confirm linking a provider identity to the existing account with its
 * verified e-mail. Proof of owning that account: being signed in to it, or its password.
 */
export const AutoLinkRequestSchema = z.object({
  linkId: z.string().trim().min(1).max(200),
  password: z.string().max(200).optional(),
});
export type AutoLinkRequest = z.infer<typeof AutoLinkRequestSchema>;
export const AutoLinkResponseSchema = z.object({ tempKey: z.string() });

/** One provider linked to an account. */
export const UserProviderSchema = z.object({
  id: z.string(),
  providerKey: z.string(),
  /** The provider's display name now (its key when it is no longer configured). */
  providerName: z.string(),
  kind: ProviderKindSchema.nullable(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  displayName: z.string().nullable(),
  createTime: z.string(),
  lastUsedTime: z.string().nullable(),
});
export type UserProvider = z.infer<typeof UserProviderSchema>;

/** GET /api/User/GetUserProviderList: the caller's links, and whether the account has a password. */
export const UserProviderListSchema = z.object({ list: z.array(UserProviderSchema), hasPassword: z.boolean() });
export type UserProviderList = z.infer<typeof UserProviderListSchema>;

export const UserProviderIdQuerySchema = z.object({ id: z.string().trim().min(1).max(100) });
/** POST /api/User/DeleteUserProvider: unlink; refused when it is the account's last way to sign in. */
export const DeleteUserProviderRequestSchema = z.object({ id: z.string().trim().min(1).max(100) });
export const UserProvidersByUserQuerySchema = z.object({ userId: z.string().trim().min(1).max(100) });
export const AdminUserProviderListSchema = z.object({ list: z.array(UserProviderSchema) });

/** The console's view of a provider: never its secret. source env: set in the environment, read-only. */
export const AdminSignInProviderSchema = z.object({
  providerKey: z.string(),
  kind: ProviderKindSchema,
  displayName: z.string(),
  issuer: z.string().nullable(),
  tenant: z.string().nullable(),
  clientId: z.string(),
  /** Whether a secret is stored (the secret itself is never answered). */
  hasSecret: z.boolean(),
  enabled: z.boolean(),
  sortOrder: z.number().int(),
  source: z.enum(['env', 'console']),
});
export type AdminSignInProvider = z.infer<typeof AdminSignInProviderSchema>;
export const AdminSignInProviderListSchema = z.object({ list: z.array(AdminSignInProviderSchema) });

/**
 * POST /api/admin/SignInProvider/Save: add or edit a console provider. clientSecret empty keeps the
 * stored one (required when adding). issuer: an https URL (http only for loopback), for oidc.
 */
export const SaveSignInProviderSchema = z
  .object({
    providerKey: ProviderKeySchema,
    kind: ProviderKindSchema,
    displayName: z.string().trim().min(1).max(60),
    issuer: z.string().trim().max(500).optional().nullable(),
    tenant: z.string().trim().max(100).optional().nullable(),
    clientId: z.string().trim().min(1).max(500),
    clientSecret: z.string().trim().max(2000).optional(),
    enabled: z.boolean().default(true),
    sortOrder: z.number().int().min(-1000).max(1000).default(0),
  })
  .refine((v) => v.kind !== 'oidc' || !!v.issuer, { message: 'providerIssuerRequired', path: ['issuer'] });
export type SaveSignInProvider = z.input<typeof SaveSignInProviderSchema>;
export const DeleteSignInProviderSchema = z.object({ providerKey: ProviderKeySchema });
