import { z } from 'zod';

/**
 * What the central login page (/login), embedded in the login dialog's frame, posts to its parent
 * window: a temp key after a successful sign-in (exchanged with GetTokenForTempKey), that the visitor
 * is not logged in there, or the height of its content. The parent accepts these only from the login
 * page's origin and its own frame.
 */
/** The tallest content height the login page reports (and its parent accepts), in CSS pixels. */
export const LOGIN_FRAME_MAX_HEIGHT = 5000;

export const LoginFrameMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('login-success'), code: z.literal(200), tempKey: z.string().trim().min(1).max(200) }),
  z.object({ type: z.literal('not-logged-in') }),
  /** The page's content height in CSS pixels, sent on every change (a tab, an error): the frame takes it. */
  z.object({ type: z.literal('resize'), height: z.number().int().min(1).max(LOGIN_FRAME_MAX_HEIGHT) }),
]);
export type LoginFrameMessage = z.infer<typeof LoginFrameMessageSchema>;
