import { ActionIcon, Alert, Anchor, Badge, Button, Center, Group, Image, Loader, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/campaigns.en.json';
import { campaignsQuery, claimCampaign, dismissCampaign, invalidateCampaigns, viewCampaign } from '../../shared/api/campaigns.ts';
import { invalidatePoints } from '../../shared/api/points.ts';
import { apiUrl } from '../../shared/api/request.ts';
import { isLoggedInAtom, tokenAtom } from '../../shared/atoms/auth.ts';
import type { Campaign, CampaignClaimResult } from '../../shared/contracts/campaigns.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { IconCopy, IconGift, IconX } from '../ui/icons.tsx';
import { notifyError, notifySuccess } from '../ui/notify.ts';

addEnglishStrings(en);

/** Views already recorded in this page's life: the server counts each once anyway, this saves the calls. */
const viewed = new Set<string>();

function useRecordView(campaignId: string) {
  useEffect(() => {
    if (viewed.has(campaignId)) return;
    viewed.add(campaignId);
    // A view that could not be recorded is not worth a message: the next page's life tries again.
    viewCampaign(campaignId).catch(() => viewed.delete(campaignId));
  }, [campaignId]);
}

function ClaimResult({ claim }: { claim: CampaignClaimResult }) {
  const { t } = useTranslation();
  if (claim.rewardType === 'points') {
    return (
      <Badge color="teal" variant="light" tt="none" data-testid="campaign-claimed">
        {t('campaigns.claimedPoints', { points: claim.points })}
      </Badge>
    );
  }
  const code = claim.couponCode ?? '';
  const copy = () =>
    (navigator.clipboard?.writeText(code) ?? Promise.reject(new Error('no clipboard'))).then(
      () => notifySuccess(t('campaigns.copied')),
      () => notifyError(t('campaigns.copyFailed')),
    );
  return (
    <Group gap={6} wrap="nowrap" data-testid="campaign-claimed">
      <Text size="sm" fw={600} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {t('campaigns.claimedCoupon', { code })}
      </Text>
      <ActionIcon variant="subtle" size="sm" aria-label={t('campaigns.copyCode')} onClick={() => void copy()}>
        <IconCopy size={14} />
      </ActionIcon>
    </Group>
  );
}

export interface CampaignCardProps {
  campaign: Campaign;
  /** Shows the close button: the home screen's and the popup's cards can be hidden. */
  dismissable?: boolean;
}

/**
 * One campaign: its picture, title and text in the user's language, the reward with its Claim button,
 * and once claimed what it gave (the points, or the coupon's code to copy). A refusal (claimed
 * already, none left) is shown under the button in the server's words.
 */
export function CampaignCard({ campaign, dismissable = false }: CampaignCardProps) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  useRecordView(campaign.campaignId);
  const claim = useMutation({
    mutationFn: () => claimCampaign(campaign.campaignId),
    onSuccess: async (result) => {
      notifySuccess(result.rewardType === 'points' ? t('campaigns.claimedPoints', { points: result.points }) : t('campaigns.claimedCoupon', { code: result.couponCode }));
      await Promise.all([invalidateCampaigns(queryClient), invalidatePoints(queryClient)]);
    },
  });
  const dismiss = useMutation({
    mutationFn: () => dismissCampaign(campaign.campaignId),
    onSuccess: () => invalidateCampaigns(queryClient),
    onError: (error) => notifyError(error.message),
  });
  const claimed = campaign.claim ?? claim.data ?? null;
  const usedUp = campaign.claimsLeft === 0 && !claimed;
  const ends = new Date(campaign.endTime).toLocaleDateString(i18n.language);
  return (
    <Paper withBorder radius={6} p="sm" data-testid="campaign-card" data-campaign-id={campaign.campaignId} style={{ textAlign: 'start' }}>
      <Stack gap={8}>
        {/* An uploaded picture's address is the server's (relative); any other is https. */}
        {campaign.imageUrl && <Image src={campaign.imageUrl.startsWith('/') ? apiUrl(campaign.imageUrl) : campaign.imageUrl} alt="" radius={4} mah={140} fit="cover" />}
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
            <IconGift size={18} style={{ flexShrink: 0, color: '#7b7ddb' }} />
            <Text size="sm" fw={600} style={{ minWidth: 0, overflowWrap: 'anywhere' }} data-testid="campaign-title">
              {campaign.title}
            </Text>
          </Group>
          {dismissable && (
            <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('campaigns.dismiss')} loading={dismiss.isPending} onClick={() => dismiss.mutate()} data-testid="campaign-dismiss">
              <IconX size={14} />
            </ActionIcon>
          )}
        </Group>
        {campaign.body && (
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {campaign.body}
          </Text>
        )}
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="xs" c="dimmed">
            {[
              campaign.rewardType === 'points' ? t('campaigns.rewardPoints', { points: campaign.rewardPoints }) : campaign.rewardText,
              campaign.claimsLeft !== null && !claimed ? t('campaigns.claimsLeft', { count: campaign.claimsLeft }) : null,
              t('campaigns.ends', { date: ends }),
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
          {claimed ? null : campaign.rewardType !== 'none' && (
            <Button size="xs" loading={claim.isPending} disabled={usedUp} onClick={() => claim.mutate()} data-testid="campaign-claim">
              {campaign.rewardType === 'points' ? t('campaigns.claimPoints', { points: campaign.rewardPoints }) : t('campaigns.claim')}
            </Button>
          )}
        </Group>
        {claimed && <ClaimResult claim={claimed} />}
        {claim.isError && (
          <Text size="xs" c="red" role="alert" data-testid="campaign-claim-error">
            {claim.error.message}
          </Text>
        )}
        {campaign.dismissed && (
          <Text size="xs" c="dimmed">
            {t('campaigns.hidden')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

export interface CampaignCardsProps {
  /** At most this many cards (the popup shows one). */
  limit?: number;
  /** A link to the campaigns page under the cards. */
  onSeeAll?: () => void;
  /** On the chat's welcome screen: centred under the welcome, as the check-in card. */
  home?: boolean;
}

/**
 * The running campaigns the user has not hidden, as dismissable cards: on the chat's home screen and
 * in the popup. Nothing for a visitor, while loading, on a failure, or when there is none.
 */
export function CampaignCards({ limit, onSeeAll, home = false }: CampaignCardsProps) {
  const { t, i18n } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const loggedIn = useAtomValue(isLoggedInAtom);
  const list = useQuery(campaignsQuery(loggedIn ? token : null, i18n.language));
  if (!loggedIn || !list.data?.length) return null;
  const shown = limit ? list.data.slice(0, limit) : list.data;
  return (
    <Stack gap={8} data-testid="campaign-cards" style={home ? { maxWidth: 420, margin: '12px auto 0', width: '100%' } : undefined}>
      {shown.map((c) => (
        <CampaignCard key={c.campaignId} campaign={c} dismissable />
      ))}
      {onSeeAll && (
        <Anchor component="button" type="button" size="xs" onClick={onSeeAll} style={{ alignSelf: 'center' }}>
          {t('campaigns.seeAll')}
        </Anchor>
      )}
    </Stack>
  );
}

/** Every running campaign for the user, hidden ones included: the campaigns page's content. */
export function CampaignList() {
  const { t, i18n } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const list = useQuery(campaignsQuery(token, i18n.language, true));
  if (list.isPending) {
    return (
      <Center py="xl">
        <Loader size="sm" />
      </Center>
    );
  }
  if (list.isError) {
    return (
      <Stack gap="sm">
        <Alert color="red" role="alert">
          {t('campaigns.loadFailed')}
        </Alert>
        <Button variant="light" onClick={() => void list.refetch()} style={{ alignSelf: 'flex-start' }}>
          {t('campaigns.retry')}
        </Button>
      </Stack>
    );
  }
  if (!list.data.length) {
    return (
      <Text c="dimmed" ta="center" py="xl" data-testid="campaigns-empty">
        {t('campaigns.empty')}
      </Text>
    );
  }
  return (
    <Stack gap="sm" data-testid="campaign-list">
      {list.data.map((c) => (
        <CampaignCard key={c.campaignId} campaign={c} />
      ))}
    </Stack>
  );
}
