import { queryOptions, type QueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { CampaignClaimResultSchema, CampaignListSchema, CampaignViewResultSchema, type CampaignClaimResult } from '../contracts/campaigns.ts';
import { apiGet, apiPost } from './request.ts';

/** Campaigns (MarketActivity, shared/contracts/campaigns.ts): the cards of the home screen and the popup, and the campaigns page. */

export const campaignsKey = ['campaigns'] as const;

/**
 * The campaigns for the signed-in user now, in their language (the server answers in the request's);
 * `all`: also the dismissed ones (the campaigns page). Keyed by the token: another account sees its own.
 */
export function campaignsQuery(token: string | null, language: string, all = false) {
  return queryOptions({
    queryKey: [...campaignsKey, token, language, all] as const,
    queryFn: ({ signal }) => apiGet('/api/MarketActivity/GetList', { all }, { data: CampaignListSchema, signal }),
    enabled: token !== null,
    staleTime: 5 * 60_000,
  });
}

/** Records that the user saw the card (the server counts it once per user). */
export function viewCampaign(campaignId: string) {
  return apiPost('/api/MarketActivity/View', { campaignId }, { data: CampaignViewResultSchema });
}

export function claimCampaign(campaignId: string): Promise<CampaignClaimResult> {
  return apiPost('/api/MarketActivity/Claim', { campaignId }, { data: CampaignClaimResultSchema, fallbackMessage: i18next.t('campaigns.claimFailed') });
}

export function dismissCampaign(campaignId: string) {
  return apiPost('/api/MarketActivity/Dismiss', { campaignId });
}

export function invalidateCampaigns(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: campaignsKey });
}
