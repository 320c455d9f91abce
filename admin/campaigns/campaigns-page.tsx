import { Badge, Button, FileButton, Group, Image, MultiSelect, NumberInput, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import 'mantine-datatable/styles.css';
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { fieldMessages } from '../../components/ui/form-errors.ts';
import { notifySuccess, onMutationError } from '../../components/ui/notify.ts';
import { Modal } from '../../components/ui/overlays.tsx';
import { pagedTableProps } from '../../components/ui/paged-table.ts';
import { SaveCampaignSchema, type AdminCampaign, type AdminCampaignClaim } from '../../shared/contracts/campaigns.ts';
import { apiUrl } from '../../shared/api/request.ts';
import { formatMoney } from '../../shared/utils/money.ts';
import { ResourceForm, useSchemaSubmit } from '../ui/resource-form.tsx';
import { ResourceTable, type ResourceFormSlot } from '../ui/resource-table.tsx';
import {
  adminCampaignClaimsQuery,
  adminCampaignsKey,
  adminCampaignsQuery,
  CAMPAIGN_PAGE_SIZE,
  deleteAdminCampaign,
  endAdminCampaign,
  rewardCouponsQuery,
  saveAdminCampaign,
  type SaveCampaignInput,
  uploadCampaignImage,
} from './api.ts';
import './strings.ts';

const STATUS_COLORS = { scheduled: 'blue', active: 'teal', ended: 'gray' } as const;

/** A date-time as the console shows it, in the operator's language and time zone. */
const when = (iso: string, language: string) => new Date(iso).toLocaleString(language === 'zh' ? 'zh-CN' : 'en-US', { dateStyle: 'medium', timeStyle: 'short' });

type T = TFunction;

/** Who a campaign is for, in words. */
const audienceOf = (c: AdminCampaign, t: T) =>
  [
    c.planLevels.length ? c.planLevels.map((l) => (l === 0 ? t('adminCampaigns.free') : t('adminCampaigns.level', { level: l }))).join(', ') : t('adminCampaigns.everyone'),
    c.language !== 'all' ? t(`adminCampaigns.languages.${c.language}`) : null,
    c.newUserDays !== null ? t('adminCampaigns.newUsers', { days: c.newUserDays }) : null,
  ]
    .filter(Boolean)
    .join(' · ');

const rewardOf = (c: AdminCampaign, t: T) =>
  c.rewardType === 'points'
    ? t('adminCampaigns.pointsReward', { points: c.rewardPoints })
    : c.rewardType === 'coupon'
      ? t('adminCampaigns.couponReward', { code: c.rewardCouponCode ?? '' })
      : t('adminCampaigns.rewards.none');

/** What it cost: the points credited, or the invoices paid with the reward coupon and what they took off. */
function costOf(c: AdminCampaign, t: T, language: string) {
  if (c.rewardType === 'points') return t('adminCampaigns.pointsCost', { points: c.pointsCost });
  if (c.rewardType === 'coupon') {
    const amount = Object.entries(c.couponDiscounts)
      .map(([currency, minor]) => formatMoney(minor, currency, language))
      .join(', ');
    return t('adminCampaigns.couponCost', { count: c.couponRedemptions, amount: amount || '0' });
  }
  return '—';
}

/**
 * /admin/campaigns — the campaigns with their window, audience, reward, views, claims and cost;
 * create and edit them, end one early, delete one, and see who claimed what.
 */
export function CampaignsPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [claimsOf, setClaimsOf] = useState<AdminCampaign | null>(null);
  const campaigns = useQuery(adminCampaignsQuery(page));
  const end = useMutation({
    mutationFn: (c: AdminCampaign) => endAdminCampaign(c.campaignId),
    onSuccess: async () => {
      notifySuccess(t('adminCampaigns.ended'));
      await queryClient.invalidateQueries({ queryKey: adminCampaignsKey });
    },
    onError: onMutationError(),
  });

  return (
    <Stack>
      <Title order={2}>{t('adminCampaigns.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('adminCampaigns.intro')}
      </Text>
      <ResourceTable<AdminCampaign, SaveCampaignInput>
        list={campaigns}
        queryKey={adminCampaignsKey}
        newLabel={t('adminCampaigns.new')}
        editTitle={t('adminCampaigns.edit')}
        modalSize="lg"
        formKey={(c) => c.campaignId}
        save={saveAdminCampaign}
        savedText={t('adminCampaigns.saved')}
        form={(slot) => <CampaignForm {...slot} />}
        remove={{
          call: (c) => deleteAdminCampaign(c.campaignId),
          title: t('adminCampaigns.deleteTitle'),
          message: (c) => t('adminCampaigns.deleteMessage', { title: c?.titleEn ?? '' }),
          confirmLabel: t('adminCampaigns.delete'),
          cancelLabel: t('adminCampaigns.cancel'),
          deletedText: () => t('adminCampaigns.deleted'),
        }}
        table={({ edit, askDelete }) => (
          <DataTable<AdminCampaign>
            aria-label={t('adminCampaigns.title')}
            idAccessor="campaignId"
            {...pagedTableProps(campaigns, { page, onPageChange: setPage, pageSize: CAMPAIGN_PAGE_SIZE, emptyText: t('adminCampaigns.noRecords') })}
            columns={[
              {
                accessor: 'titleEn',
                title: t('adminCampaigns.campaign'),
                render: (c) => (
                  <Stack gap={0}>
                    <Text size="sm" fw={600}>
                      {i18n.language === 'zh' ? c.titleZh : c.titleEn}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {i18n.language === 'zh' ? c.titleEn : c.titleZh}
                    </Text>
                  </Stack>
                ),
              },
              { accessor: 'startTime', title: t('adminCampaigns.window'), render: (c) => `${when(c.startTime, i18n.language)} – ${when(c.endTime, i18n.language)}` },
              { accessor: 'planLevels', title: t('adminCampaigns.audience'), render: (c) => audienceOf(c, t) },
              { accessor: 'rewardType', title: t('adminCampaigns.reward'), render: (c) => rewardOf(c, t) },
              { accessor: 'views', title: t('adminCampaigns.views'), render: (c) => `${c.views}${c.dismissals ? ` (${t('adminCampaigns.dismissals', { count: c.dismissals })})` : ''}` },
              { accessor: 'claims', title: t('adminCampaigns.claims'), render: (c) => `${c.claims}${c.maxClaims !== null ? ` / ${c.maxClaims}` : ''}` },
              { accessor: 'pointsCost', title: t('adminCampaigns.cost'), render: (c) => costOf(c, t, i18n.language) },
              {
                accessor: 'status',
                title: t('adminCampaigns.status'),
                render: (c) => (
                  <Badge variant="light" color={STATUS_COLORS[c.status]}>
                    {t(`adminCampaigns.statuses.${c.status}`)}
                  </Badge>
                ),
              },
              {
                accessor: 'actions',
                title: t('adminCampaigns.actions'),
                render: (c) => (
                  <Group gap={4} wrap="nowrap">
                    <Button size="compact-xs" variant="subtle" onClick={() => edit(c)}>
                      {t('adminCampaigns.editAction')}
                    </Button>
                    {c.rewardType !== 'none' && (
                      <Button size="compact-xs" variant="subtle" onClick={() => setClaimsOf(c)}>
                        {t('adminCampaigns.claimsAction')}
                      </Button>
                    )}
                    {c.status !== 'ended' && (
                      <Button size="compact-xs" variant="subtle" color="orange" disabled={end.isPending} onClick={() => end.mutate(c)}>
                        {t('adminCampaigns.end')}
                      </Button>
                    )}
                    <Button size="compact-xs" variant="subtle" color="red" onClick={() => askDelete(c)}>
                      {t('adminCampaigns.delete')}
                    </Button>
                  </Group>
                ),
              },
            ]}
          />
        )}
      />
      {claimsOf && <ClaimsDialog campaign={claimsOf} onClose={() => setClaimsOf(null)} />}
    </Stack>
  );
}

function ClaimsDialog({ campaign, onClose }: { campaign: AdminCampaign; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const claims = useQuery(adminCampaignClaimsQuery(campaign.campaignId, page));
  return (
    <Modal opened onClose={onClose} title={t('adminCampaigns.claimList', { title: campaign.titleEn })} size="lg" centered>
      <DataTable<AdminCampaignClaim>
        aria-label={t('adminCampaigns.claimList', { title: campaign.titleEn })}
        idAccessor="userId"
        {...pagedTableProps(claims, { page, onPageChange: setPage, pageSize: CAMPAIGN_PAGE_SIZE, emptyText: t('adminCampaigns.noRecords') })}
        columns={[
          { accessor: 'email', title: t('adminCampaigns.user'), render: (c) => `${c.userName} <${c.email}>` },
          { accessor: 'points', title: t('adminCampaigns.got'), render: (c) => (c.rewardType === 'points' ? t('adminCampaigns.pointsReward', { points: c.points }) : t('adminCampaigns.couponReward', { code: c.couponCode ?? '' })) },
          { accessor: 'claimTime', title: t('adminCampaigns.when'), render: (c) => when(c.claimTime, i18n.language) },
        ]}
      />
    </Modal>
  );
}

const PROBLEMS = new Set(['campaignDatesInvalid', 'campaignImageInvalid', 'campaignRewardPointsInvalid', 'campaignRewardCouponInvalid', 'campaignMaxClaimsWithoutReward']);

/** An ISO instant as a datetime-local input's value (the operator's own time zone), and back. */
const toLocalInput = (iso: string | undefined) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocalInput = (value: string) => (value && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : value);

function CampaignForm({ existing, saving, onSave, onCancel }: ResourceFormSlot<AdminCampaign, SaveCampaignInput>) {
  const { t } = useTranslation();
  const coupons = useQuery(rewardCouponsQuery());
  const [v, setV] = useState({
    titleEn: existing?.titleEn ?? '',
    titleZh: existing?.titleZh ?? '',
    bodyEn: existing?.bodyEn ?? '',
    bodyZh: existing?.bodyZh ?? '',
    imageUrl: existing?.imageUrl ?? '',
    startTime: toLocalInput(existing?.startTime ?? new Date().toISOString()),
    endTime: toLocalInput(existing?.endTime ?? new Date(Date.now() + 7 * 86_400_000).toISOString()),
    planLevels: (existing?.planLevels ?? []).map(String),
    language: existing?.language ?? ('all' as const),
    newUserDays: (existing?.newUserDays ?? '') as number | string,
    rewardType: existing?.rewardType ?? ('none' as const),
    rewardPoints: (existing?.rewardPoints ?? '') as number | string,
    rewardCouponId: existing?.rewardCouponId ?? null,
    maxClaims: (existing?.maxClaims ?? '') as number | string,
  });
  const set = (patch: Partial<typeof v>) => setV((old) => ({ ...old, ...patch }));
  const numberOrNull = (x: number | string) => (x === '' ? null : Number(x));
  const build = (): SaveCampaignInput => ({
    ...(existing ? { campaignId: existing.campaignId } : {}),
    titleEn: v.titleEn,
    titleZh: v.titleZh,
    bodyEn: v.bodyEn,
    bodyZh: v.bodyZh,
    imageUrl: v.imageUrl.trim() || null,
    startTime: fromLocalInput(v.startTime),
    endTime: fromLocalInput(v.endTime),
    planLevels: v.planLevels.map(Number),
    language: v.language,
    newUserDays: numberOrNull(v.newUserDays),
    rewardType: v.rewardType,
    rewardPoints: v.rewardType === 'points' ? numberOrNull(v.rewardPoints) : null,
    rewardCouponId: v.rewardType === 'coupon' ? v.rewardCouponId : null,
    maxClaims: v.rewardType === 'none' ? null : numberOrNull(v.maxClaims),
  });
  const { errors, submit } = useSchemaSubmit(SaveCampaignSchema, build, onSave);
  const upload = useMutation({ mutationFn: uploadCampaignImage, onSuccess: (saved) => set({ imageUrl: saved.imageUrl }), onError: onMutationError() });
  const err = fieldMessages(errors, PROBLEMS, (code) => t(`adminCampaigns.invalid.${code}`), () => t('adminCampaigns.invalidField'));
  const f = (name: string) => t(`adminCampaigns.fields.${name}`);
  return (
    <ResourceForm onSubmit={submit} saving={saving} onCancel={onCancel} cancelLabel={t('adminCampaigns.cancel')} saveLabel={t('adminCampaigns.save')}>
      <Group grow align="flex-start">
        <TextInput label={f('titleEn')} required value={v.titleEn} onChange={(e) => set({ titleEn: e.currentTarget.value })} error={err('titleEn')} />
        <TextInput label={f('titleZh')} required value={v.titleZh} onChange={(e) => set({ titleZh: e.currentTarget.value })} error={err('titleZh')} />
      </Group>
      <Group grow align="flex-start">
        <Textarea label={f('bodyEn')} autosize minRows={2} value={v.bodyEn} onChange={(e) => set({ bodyEn: e.currentTarget.value })} error={err('bodyEn')} />
        <Textarea label={f('bodyZh')} autosize minRows={2} value={v.bodyZh} onChange={(e) => set({ bodyZh: e.currentTarget.value })} error={err('bodyZh')} />
      </Group>
      <Group align="flex-end" wrap="nowrap">
        <TextInput label={f('imageUrl')} placeholder="https://" value={v.imageUrl} onChange={(e) => set({ imageUrl: e.currentTarget.value })} error={err('imageUrl')} style={{ flex: 1 }} />
        <FileButton accept="image/png,image/jpeg,image/webp" onChange={(file) => file && upload.mutate(file)}>
          {(props) => (
            <Button {...props} variant="light" loading={upload.isPending}>
              {t('adminCampaigns.upload')}
            </Button>
          )}
        </FileButton>
      </Group>
      {v.imageUrl && !err('imageUrl') && <Image src={v.imageUrl.startsWith('/') ? apiUrl(v.imageUrl) : v.imageUrl} alt="" mah={120} w="auto" fit="contain" radius={4} />}
      <Group grow align="flex-start">
        <TextInput type="datetime-local" label={f('startTime')} required value={v.startTime} onChange={(e) => set({ startTime: e.currentTarget.value })} error={err('startTime')} />
        <TextInput type="datetime-local" label={f('endTime')} required value={v.endTime} onChange={(e) => set({ endTime: e.currentTarget.value })} error={err('endTime')} />
      </Group>
      <Group grow align="flex-start">
        <MultiSelect
          label={f('planLevels')}
          placeholder={f('planLevelsHint')}
          data={[0, 1, 2, 3].map((l) => ({ value: String(l), label: l === 0 ? t('adminCampaigns.free') : t('adminCampaigns.level', { level: l }) }))}
          value={v.planLevels}
          onChange={(planLevels) => set({ planLevels })}
        />
        <Select
          label={f('language')}
          data={(['all', 'en', 'zh'] as const).map((l) => ({ value: l, label: t(`adminCampaigns.languages.${l}`) }))}
          value={v.language}
          onChange={(l) => l && set({ language: l as 'all' | 'en' | 'zh' })}
          allowDeselect={false}
        />
        <NumberInput label={f('newUserDays')} placeholder={f('anyAccount')} min={1} allowDecimal={false} value={v.newUserDays} onChange={(x) => set({ newUserDays: x })} error={err('newUserDays')} />
      </Group>
      <Group grow align="flex-start">
        <Select
          label={f('rewardType')}
          data={(['none', 'points', 'coupon'] as const).map((r) => ({ value: r, label: t(`adminCampaigns.rewards.${r}`) }))}
          value={v.rewardType}
          onChange={(r) => r && set({ rewardType: r as 'none' | 'points' | 'coupon' })}
          allowDeselect={false}
        />
        {v.rewardType === 'points' && (
          <NumberInput label={f('rewardPoints')} required min={1} allowDecimal={false} value={v.rewardPoints} onChange={(x) => set({ rewardPoints: x })} error={err('rewardPoints')} />
        )}
        {v.rewardType === 'coupon' && (
          <Select
            label={f('rewardCouponId')}
            required
            searchable
            data={(coupons.data?.list ?? []).map((c) => ({ value: c.couponId, label: `${c.code} (${c.percentOff !== null ? `${c.percentOff}%` : `${c.amountOff} ${c.currency ?? ''}`})`, disabled: c.disabled }))}
            value={v.rewardCouponId}
            onChange={(id) => set({ rewardCouponId: id })}
            error={err('rewardCouponId')}
          />
        )}
        {v.rewardType !== 'none' && (
          <NumberInput label={f('maxClaims')} placeholder={f('unlimited')} min={1} allowDecimal={false} value={v.maxClaims} onChange={(x) => set({ maxClaims: x })} error={err('maxClaims')} />
        )}
      </Group>
    </ResourceForm>
  );
}
