import type { FastifyInstance } from 'fastify';
import {
  CampaignClaimResultSchema,
  CampaignIdBodySchema,
  CampaignIdQuerySchema,
  CampaignImageQuerySchema,
  CampaignListQuerySchema,
  CampaignListSchema,
  CampaignSchema,
  CampaignViewResultSchema,
} from '../../shared/contracts/campaigns.ts';
import type { AuthUser } from '../services/accounts/auth.ts';
import type { Language } from '../../shared/contracts/common.ts';
import { BytesSchema } from '../../shared/contracts/responses.ts';
import { addRoute } from '../http/route.ts';
import { sendStoredImage } from '../http/stored-image.ts';
import { readCampaignImage } from '../services/campaigns/campaign-images.ts';
import { claimCampaign, dismissCampaign, getMyCampaign, listMyCampaigns, viewCampaign } from '../services/campaigns/campaigns.ts';

const viewer = (user: AuthUser, lang: Language) => ({ userId: user.id, vipLevel: user.vipLevel, lang });

/** Campaigns for users (docs/api.md#campaigns): the cards on the home screen and the popup, and the campaigns page. */
export function registerCampaignRoutes(app: FastifyInstance): void {
  const base = '/api/MarketActivity';
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetList`,
    auth: 'user',
    summary:
      "The campaigns running now whose audience takes the caller in (plan level, language of the request, account age), newest first, in the caller's language, with the caller's claim. all=true also lists the ones the caller dismissed",
    query: CampaignListQuerySchema,
    data: CampaignListSchema,
    handler: ({ ctx, user, lang, query }) => listMyCampaigns(ctx, viewer(user, lang), query.all),
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetById`,
    auth: 'user',
    summary: 'One campaign for the caller; 10404 when it is not running or not for them',
    query: CampaignIdQuerySchema,
    data: CampaignSchema,
    handler: ({ ctx, user, lang, query }) => getMyCampaign(ctx, viewer(user, lang), query.campaignId),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/View`,
    auth: 'user',
    summary: 'Records that the caller saw the campaign: counted once per user (counted false for a view seen before)',
    body: CampaignIdBodySchema,
    data: CampaignViewResultSchema,
    handler: ({ ctx, user, lang, body }) => viewCampaign(ctx, viewer(user, lang), body.campaignId),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Claim`,
    auth: 'user',
    summary:
      "Claims the campaign's reward, once per user: points are credited on the ledger (balance answered), a coupon's code is handed out for checkout. 10409 when claimed already, 10400 when the budget is used up or there is no reward",
    body: CampaignIdBodySchema,
    data: CampaignClaimResultSchema,
    handler: ({ ctx, user, lang, body }) => claimCampaign(ctx, viewer(user, lang), body.campaignId),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Dismiss`,
    auth: 'user',
    summary: "Hides the campaign's card from the caller's home screen and popup (GetList with all=true still lists it)",
    body: CampaignIdBodySchema,
    handler: ({ ctx, user, lang, body }) => dismissCampaign(ctx, viewer(user, lang), body.campaignId),
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetImage`,
    auth: 'public',
    summary: "A campaign's uploaded picture, by the address UploadImage answered (a random id that never changes, so it is cached for good). An unknown id answers HTTP 404 with Code 10404",
    query: CampaignImageQuerySchema,
    raw: { description: 'The picture, WebP.', content: { 'image/webp': BytesSchema }, notFoundStatus: true },
    handler: async ({ ctx, query, reply, lang }) => sendStoredImage(reply, await readCampaignImage(ctx, query.imageId), lang),
  });
}
