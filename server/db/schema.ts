import * as users from './schema/users.ts';
import * as points from './schema/points.ts';
import * as models from './schema/models.ts';
import * as chat from './schema/chat.ts';
import * as system from './schema/system.ts';
import * as media from './schema/media.ts';
import * as plugins from './schema/plugins.ts';
import * as redeemCodes from './schema/redeem-codes.ts';
import * as notifications from './schema/notifications.ts';
import * as plans from './schema/plans.ts';
import * as coupons from './schema/coupons.ts';
import * as feedback from './schema/feedback.ts';
import * as favourites from './schema/favourites.ts';
import * as quickFunctions from './schema/quick-functions.ts';
import * as personalization from './schema/personalization.ts';
import * as instances from './schema/instances.ts';
import * as shares from './schema/shares.ts';
import * as audit from './schema/audit.ts';
import * as usage from './schema/usage.ts';
import * as emailVerifications from './schema/email-verifications.ts';
import * as languageLog from './schema/language-log.ts';
import * as responsesFiles from './schema/responses-files.ts';
import * as signInProviders from './schema/sign-in-providers.ts';
import * as campaigns from './schema/campaigns.ts';

/** The whole schema, for Drizzle's relational queries. Tables are imported from their own files. */
export const schema = { ...users, ...points, ...models, ...chat, ...system, ...media, ...plugins, ...redeemCodes, ...notifications, ...plans, ...coupons, ...favourites, ...feedback, ...quickFunctions, ...personalization, ...instances, ...shares, ...audit, ...usage, ...emailVerifications, ...languageLog, ...responsesFiles, ...signInProviders, ...campaigns };
