import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import {
  AdminCampaignClaimPageSchema,
  AdminCampaignPageSchema,
  AdminCampaignSchema,
  CampaignImageSchema,
  type AdminCampaign,
  type SaveCampaignSchema,
} from '../../shared/contracts/campaigns.ts';
import { pagedSchema } from '../../shared/contracts/common.ts';
import { AdminCouponSchema } from '../../shared/contracts/coupons.ts';
import { apiGet, apiPost } from '../../shared/api/request.ts';

/** The console's campaigns (/api/admin/MarketActivity/*, docs/api.md#campaigns). */

export const adminCampaignsKey = ['admin', 'campaigns'] as const;

export const CAMPAIGN_PAGE_SIZE = 20;

export function adminCampaignsQuery(page: number) {
  return queryOptions({
    queryKey: [...adminCampaignsKey, 'list', page] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/MarketActivity/GetList', { page, count: CAMPAIGN_PAGE_SIZE }, { data: AdminCampaignPageSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export function adminCampaignClaimsQuery(campaignId: string, page: number) {
  return queryOptions({
    queryKey: [...adminCampaignsKey, 'claims', campaignId, page] as const,
    queryFn: ({ signal }) =>
      apiGet('/api/admin/MarketActivity/GetClaimList', { campaignId, page, count: CAMPAIGN_PAGE_SIZE }, { data: AdminCampaignClaimPageSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The coupons a reward may hand out (the first 100, newest first). */
export function rewardCouponsQuery() {
  return queryOptions({
    queryKey: [...adminCampaignsKey, 'coupons'] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/Coupons/GetList', { page: 1, count: 100 }, { data: pagedSchema(AdminCouponSchema), signal }),
  });
}

export type SaveCampaignInput = z.input<typeof SaveCampaignSchema>;

export function saveAdminCampaign(body: SaveCampaignInput): Promise<AdminCampaign> {
  return apiPost('/api/admin/MarketActivity/Save', body, { data: AdminCampaignSchema });
}

export function endAdminCampaign(campaignId: string): Promise<AdminCampaign> {
  return apiPost('/api/admin/MarketActivity/End', { campaignId }, { data: AdminCampaignSchema });
}

export function deleteAdminCampaign(campaignId: string): Promise<unknown> {
  return apiPost('/api/admin/MarketActivity/Delete', { campaignId });
}

/** Stores a picture (PNG, JPEG or WebP); answers the address to save as imageUrl. */
export function uploadCampaignImage(file: File): Promise<{ imageId: string; imageUrl: string }> {
  const form = new FormData();
  form.append('imageFile', file, file.name);
  return apiPost('/api/admin/MarketActivity/UploadImage', form, { data: CampaignImageSchema });
}
