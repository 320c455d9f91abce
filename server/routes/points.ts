import type { FastifyInstance } from 'fastify';
import { CheckinBodySchema, CheckinQuerySchema, CheckinStatusSchema } from '../../shared/contracts/points.ts';
import { RedeemCodeBodySchema, RedeemResultSchema } from '../../shared/contracts/redeem-codes.ts';
import { addRoute } from '../http/route.ts';
import { checkIn, getCheckinStatus } from '../services/points/check-in.ts';
import { redeemCode } from '../services/points/redeem-codes.ts';

/**
 * How fast one address may try codes (RedeemCode, and CheckPromoCode, which must not probe redeem
 * codes faster than redeeming). Each account is also held by its own failures in the hour
 * (server/services/points/redeem-codes.ts); this bounds one address across accounts.
 */
export const CODE_GUESSING_RATE_LIMIT = { max: 10, timeWindow: 60_000, by: 'address' } as const;

/** What a user earns by coming back and by redeeming codes (docs/economy.md#check-in, #redeem-codes). */
export function registerPointsRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/User/IsUserSignin',
    auth: 'user',
    summary: "Today's check-in in the given time zone: done or not, the streak, the points it gives (or gave) and the day",
    query: CheckinQuerySchema,
    data: CheckinStatusSchema,
    handler: ({ ctx, user, query }) => getCheckinStatus(ctx, user.id, query.timeZone),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/User/UserSignin',
    auth: 'user',
    summary:
      "Check in for today (the user's calendar day in timeZone): adds the check-in points (checkin_points, plus checkin_streak_bonus on every 7th consecutive day). Once a day: again answers 10409",
    body: CheckinBodySchema,
    data: CheckinStatusSchema,
    // Each day checks in once anyway; this only stops a client hammering the database.
    rateLimit: { max: 20, timeWindow: 60_000 },
    handler: ({ ctx, user, body }) => checkIn(ctx, user.id, body.timeZone),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/User/RedeemCode',
    auth: 'user',
    summary:
      'Redeem a code for points and/or plan days (case, dashes and spaces do not matter). Every refusal answers 10400 with the same message; too many wrong codes answer 10429',
    body: RedeemCodeBodySchema,
    data: RedeemResultSchema,
    // Guessing: 10 tries a minute per address, and 20 failures an hour per user.
    rateLimit: CODE_GUESSING_RATE_LIMIT,
    handler: ({ ctx, user, body }) => redeemCode(ctx, user.id, body.code),
  });
}
