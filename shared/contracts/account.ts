import { z } from 'zod';
import { MEDIA_LIMITS } from './media.ts';

const Email = z.string().trim().toLowerCase().max(254).pipe(z.email());

export const AddUserRequestSchema = z.object({
  email: Email,
  // The message is an i18n key of the server: it answers in the caller's language.
  password: z.string().min(8, 'passwordTooShort').max(200),
  userName: z.string().trim().max(50).optional(),
  inviteCode: z.string().trim().max(64).optional(),
});
export type AddUserRequest = z.infer<typeof AddUserRequestSchema>;

export const AddUserResponseSchema = z.object({ userId: z.string(), userName: z.string(), email: z.string() });
export type AddUserResponse = z.infer<typeof AddUserResponseSchema>;

export const LoginRequestSchema = z.object({ email: Email, password: z.string().min(1).max(200) });
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

/** A single-use key, valid 60 s, exchanged for a token through GET /api/User/GetTokenForTempKey. */
export const LoginResponseSchema = z.object({ tempKey: z.string() });
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

/**
 * POST /api/Account/UpdateUserPassword: the signed-in user changes their own password. The current
 * one is checked like a login (its wrong guesses count toward the login back-off); the new one follows
 * sign-up's rule. Every other login of the account ends; the one that asked stays signed in.
 */
export const UpdateUserPasswordRequestSchema = z.object({
  // Empty only for an account without a password yet (made through a sign-in provider): its first
  // one is set without one. An account with a password is refused (currentPasswordRequired).
  oldPassword: z.string().max(200).default(''),
  // The same rule as at sign-up and at a reset.
  newPassword: AddUserRequestSchema.shape.password,
});
export type UpdateUserPasswordRequest = z.input<typeof UpdateUserPasswordRequestSchema>;

/**
 * POST /api/Account/AddUserForHeadImg (multipart/form-data, one file, sent as `headImg`): the user's
 * picture, PNG, JPEG or WebP within the chat's image size. The server crops it to a centred square,
 * scales it to `side` pixels, re-encodes it as WebP without any metadata and answers the user info.
 */
export const HEAD_IMG = {
  /** The form field of the file (any one file is taken). */
  field: 'headImg',
  /** Bytes at most, as for an image attached to a chat (MEDIA_LIMITS.chat). */
  maxBytes: MEDIA_LIMITS.chat.maxBytes,
  /** The stored picture's width and height, in pixels. */
  side: 256,
  /** What a file chooser offers. */
  accept: 'image/png,image/jpeg,image/webp',
} as const;

/** GET /api/Account/GetHeadImg?headImgId=: a stored picture (the address in UserInfo.headImg). */
export const HeadImgQuerySchema = z.object({
  headImgId: z.string().trim().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
});

/**
 * A phone number as stored: spaces, dashes, dots and brackets dropped, then an optional leading +
 * and 6 to 15 digits, not starting with 0 after the + (E.164's length). An empty value is none.
 */
export const PhoneSchema = z
  .string()
  .trim()
  .max(40)
  .transform((v) => v.replace(/[\s\-.()]/g, ''))
  .pipe(z.string().regex(/^(\+[1-9]\d{5,14}|\d{6,15})$/, 'phoneInvalid'));

/** POST /api/Account/UpdateUserPhone: the signed-in user sets (or, with null or '', removes) their phone number. */
export const UpdateUserPhoneRequestSchema = z.object({
  phone: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), PhoneSchema.nullable()),
});
export type UpdateUserPhoneRequest = z.infer<typeof UpdateUserPhoneRequestSchema>;
