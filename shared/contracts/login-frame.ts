import { z } from 'zod';

/**
 * What the central login page (/login), embedded in the login dialog's frame, posts to its parent
 * window: a temp key after a successful sign-in (exchanged with GetTokenForTempKey), or that the
 * visitor is not logged in there. The parent accepts these only from the login page's origin.
 */
export const LoginFrameMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('login-success'), code: z.literal(200), tempKey: z.string().trim().min(1).max(200) }),
  z.object({ type: z.literal('not-logged-in') }),
]);
export type LoginFrameMessage = z.infer<typeof LoginFrameMessageSchema>;
