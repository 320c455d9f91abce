import type { FastifyInstance } from 'fastify';
import {
  AdminCampaignClaimPageSchema,
  AdminCampaignClaimQuerySchema,
  AdminCampaignPageSchema,
  AdminCampaignSchema,
  CAMPAIGN_IMAGE,
  CampaignIdBodySchema,
  CampaignImageSchema,
  CampaignIdQuerySchema,
  SaveCampaignSchema,
} from '../../../shared/contracts/campaigns.ts';
import { PageQuerySchema } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { addRoute, savedId } from '../../http/route.ts';
import { readUploadForm } from '../../http/upload-form.ts';
import { saveCampaignImage } from '../../services/campaigns/campaign-images.ts';
import {
  adminDeleteCampaign,
  adminEndCampaign,
  adminGetCampaign,
  adminListCampaignClaims,
  adminListCampaigns,
  adminSaveCampaign,
} from '../../services/campaigns/campaigns.ts';

/** Operators' campaigns (docs/api.md#campaigns): save, list with views, claims and cost, end early, delete, claims. */
export function registerAdminCampaignRoutes(app: FastifyInstance): void {
  const base = '/api/admin/MarketActivity';
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetList`,
    auth: 'admin',
    summary: 'The campaigns, newest first, with their status, views (once per user), dismissals, claims, points credited and what claimants saved with the reward coupon',
    query: PageQuerySchema,
    data: AdminCampaignPageSchema,
    handler: ({ ctx, query }) => adminListCampaigns(ctx, query.page, query.count),
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetById`,
    auth: 'admin',
    summary: 'One campaign with its figures',
    query: CampaignIdQuerySchema,
    data: AdminCampaignSchema,
    handler: async ({ ctx, query }) => {
      const found = await adminGetCampaign(ctx, query.campaignId);
      if (!found) throw new AppError(Codes.NotFound, 'notFound');
      return found;
    },
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Save`,
    auth: 'admin',
    audit: { target: 'campaign', id: savedId('campaignId'), load: adminGetCampaign },
    summary:
      'Creates a campaign, or replaces the one with campaignId: titles and texts in English and Chinese, an https picture, the start and end (end after start), the audience (plan levels, language, accounts newer than newUserDays) and the reward: none, points (rewardPoints) or coupon (rewardCouponId), with an optional budget maxClaims',
    body: SaveCampaignSchema,
    data: AdminCampaignSchema,
    handler: ({ ctx, body }) => adminSaveCampaign(ctx, body),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/End`,
    auth: 'admin',
    audit: { target: 'campaign', id: ({ body }) => body.campaignId, load: adminGetCampaign },
    summary: 'Ends a campaign now: users no longer see or claim it; the console keeps it with its figures',
    body: CampaignIdBodySchema,
    data: AdminCampaignSchema,
    handler: ({ ctx, body }) => adminEndCampaign(ctx, body.campaignId),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Delete`,
    auth: 'admin',
    audit: { target: 'campaign', id: ({ body }) => body.campaignId, load: adminGetCampaign },
    summary: 'Deletes a campaign: gone for users and from the console; the points already credited stay on the ledger',
    body: CampaignIdBodySchema,
    handler: ({ ctx, body }) => adminDeleteCampaign(ctx, body.campaignId),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/UploadImage`,
    auth: 'admin',
    audit: { target: 'campaignImage', id: (_call, data) => (data as { imageId?: string } | undefined)?.imageId },
    summary: `Store a campaign picture: multipart/form-data with one file, PNG, JPEG or WebP, at most ${CAMPAIGN_IMAGE.maxBytes / 1024 / 1024} MB; kept as WebP at most ${CAMPAIGN_IMAGE.width} px wide without metadata. Answers its id and the address to save as imageUrl`,
    data: CampaignImageSchema,
    rateLimit: { max: 30, timeWindow: 60_000 },
    handler: async ({ ctx, user, req, reply }) => {
      const form = await readUploadForm(req, reply, CAMPAIGN_IMAGE.maxBytes);
      return saveCampaignImage(ctx, user.id, form.file);
    },
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetClaimList`,
    auth: 'admin',
    summary: "A campaign's claims, newest first: who (e-mail, name), what they got and when",
    query: AdminCampaignClaimQuerySchema,
    data: AdminCampaignClaimPageSchema,
    handler: ({ ctx, query }) => adminListCampaignClaims(ctx, query.campaignId, query.page, query.count),
  });
}
