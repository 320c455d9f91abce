import { z } from 'zod';

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
