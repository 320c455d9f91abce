import { Button, Group, MultiSelect, NumberInput, SegmentedControl, Select, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminMoneyKey, adminPackagesQuery, couponsQuery, MONEY_PAGE_SIZE, saveCoupon, setCouponDisabled, type SaveCouponInput } from './api.ts';
import { ResourceForm, useSchemaSubmit } from '../ui/resource-form.tsx';
import { ResourceTable, type ResourceFormSlot } from '../ui/resource-table.tsx';
import { SaveCouponSchema, type AdminCoupon } from '../../shared/contracts/coupons.ts';
import { planDate } from '../../shared/utils/plan-level.ts';
import { fieldMessages } from '../../components/ui/form-errors.ts';
import { onMutationError } from '../../components/ui/notify.ts';
import { pagedTableProps } from '../../components/ui/paged-table.ts';
import { formatMoney } from '../../shared/utils/money.ts';
import { DisableButton, DisabledBadge } from './disabled-state.tsx';
import './strings.ts';

/** Coupons: discounts applied at checkout; create, edit, disable. */
export function CouponsTab() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const coupons = useQuery(couponsQuery(page));
  const disable = useMutation({
    mutationFn: (c: AdminCoupon) => setCouponDisabled(c.couponId, !c.disabled),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminMoneyKey }),
    onError: onMutationError(),
  });

  return (
    <ResourceTable<AdminCoupon, SaveCouponInput>
      list={coupons}
      queryKey={adminMoneyKey}
      newLabel={t('adminMoney.coupons.new')}
      editTitle={t('adminMoney.coupons.edit')}
      save={saveCoupon}
      savedText={t('adminMoney.saved')}
      form={(slot) => <CouponForm {...slot} />}
      table={({ edit }) => (
        <DataTable<AdminCoupon>
          aria-label={t('adminMoney.tabs.coupons')}
          idAccessor="couponId"
          {...pagedTableProps(coupons, { page, onPageChange: setPage, pageSize: MONEY_PAGE_SIZE, emptyText: t('adminMoney.noRecords') })}
          columns={[
            { accessor: 'code', title: t('adminMoney.coupons.code') },
            { accessor: 'percentOff', title: t('adminMoney.coupons.discount'), render: (c) => (c.percentOff !== null ? `${c.percentOff}%` : formatMoney(c.amountOff, c.currency, i18n.language)) },
            { accessor: 'duration', title: t('adminMoney.coupons.duration'), render: (c) => t(`adminMoney.coupons.durations.${c.duration}`) },
            { accessor: 'timesRedeemed', title: t('adminMoney.coupons.redeemed'), render: (c) => `${c.timesRedeemed}${c.maxRedemptions !== null ? ` / ${c.maxRedemptions}` : ''}${c.reserved ? ` (${t('adminMoney.coupons.held', { count: c.reserved })})` : ''}` },
            { accessor: 'validTo', title: t('adminMoney.coupons.valid'), render: (c) => `${planDate(c.validFrom) || '…'} – ${planDate(c.validTo) || '…'}` },
            {
              accessor: 'disabled',
              title: t('adminMoney.status'),
              render: (c) => <DisabledBadge disabled={c.disabled} />,
            },
            {
              accessor: 'actions',
              title: t('adminMoney.actions'),
              render: (c) => (
                <Group gap={4} wrap="nowrap">
                  <Button size="compact-xs" variant="subtle" onClick={() => edit(c)}>
                    {t('adminMoney.edit')}
                  </Button>
                  <DisableButton disabled={c.disabled} busy={disable.isPending} onClick={() => disable.mutate(c)} />
                </Group>
              ),
            },
          ]}
        />
      )}
    />
  );
}

const PROBLEMS = new Set(['couponCodeInvalid', 'couponDiscountRequired', 'couponCurrencyRequired', 'couponDatesInvalid']);

function CouponForm({ existing, saving, onSave, onCancel }: ResourceFormSlot<AdminCoupon, SaveCouponInput>) {
  const { t } = useTranslation();
  const packages = useQuery(adminPackagesQuery());
  const [kind, setKind] = useState<'percent' | 'amount'>(existing?.amountOff != null ? 'amount' : 'percent');
  const [v, setV] = useState({
    code: existing?.code ?? '',
    percentOff: (existing?.percentOff ?? 10) as number | string,
    amountOff: (existing?.amountOff ?? '') as number | string,
    currency: existing?.currency ?? 'usd',
    vipPackageIds: existing?.vipPackageIds ?? [],
    periods: existing?.periods ?? [],
    validFrom: existing?.validFrom?.slice(0, 10) ?? '',
    validTo: existing?.validTo?.slice(0, 10) ?? '',
    maxRedemptions: (existing?.maxRedemptions ?? '') as number | string,
    duration: existing?.duration ?? ('once' as const),
  });
  const set = (patch: Partial<typeof v>) => setV((old) => ({ ...old, ...patch }));
  const build = (): SaveCouponInput => ({
    ...(existing ? { couponId: existing.couponId, disabled: existing.disabled } : {}),
    code: v.code,
    ...(kind === 'percent' ? { percentOff: Number(v.percentOff) } : { amountOff: Number(v.amountOff), currency: v.currency }),
    vipPackageIds: v.vipPackageIds,
    periods: v.periods as ('month' | 'year')[],
    validFrom: v.validFrom || null,
    validTo: v.validTo || null,
    maxRedemptions: v.maxRedemptions === '' ? null : Number(v.maxRedemptions),
    duration: v.duration,
  });
  const { errors, submit } = useSchemaSubmit(SaveCouponSchema, build, onSave);
  const err = fieldMessages(errors, PROBLEMS, (code) => t(`adminMoney.coupons.invalid.${code}`), () => t('adminMoney.invalid'));
  return (
    <ResourceForm onSubmit={submit} saving={saving} onCancel={onCancel} cancelLabel={t('adminMoney.cancel')} saveLabel={t('adminMoney.save')}>
      <TextInput label={t('adminMoney.coupons.code')} description={t('adminMoney.coupons.codeHint')} required value={v.code} onChange={(e) => set({ code: e.currentTarget.value })} error={err('code')} />
      <SegmentedControl
        value={kind}
        onChange={(value) => setKind(value as 'percent' | 'amount')}
        data={[
          { value: 'percent', label: t('adminMoney.coupons.percentOff') },
          { value: 'amount', label: t('adminMoney.coupons.amountOff') },
        ]}
      />
      {kind === 'percent' ? (
        <NumberInput label={t('adminMoney.coupons.percentOff')} min={1} max={100} allowDecimal={false} value={v.percentOff} onChange={(x) => set({ percentOff: x })} error={err('percentOff') ?? err('_')} />
      ) : (
        <Group grow>
          <NumberInput label={t('adminMoney.coupons.amountOffMinor')} min={1} allowDecimal={false} value={v.amountOff} onChange={(x) => set({ amountOff: x })} error={err('amountOff') ?? err('_')} />
          <TextInput label={t('adminMoney.plans.currency')} value={v.currency} onChange={(e) => set({ currency: e.currentTarget.value })} error={err('currency')} />
        </Group>
      )}
      <MultiSelect
        label={t('adminMoney.coupons.packages')}
        placeholder={t('adminMoney.coupons.allPackages')}
        data={(packages.data ?? []).map((p) => ({ value: p.vipPackageId, label: `${p.name} (${p.vipPackageId})` }))}
        value={v.vipPackageIds}
        onChange={(ids) => set({ vipPackageIds: ids })}
      />
      <MultiSelect
        label={t('adminMoney.coupons.periods')}
        placeholder={t('adminMoney.coupons.allPeriods')}
        data={(['month', 'year'] as const).map((p) => ({ value: p, label: t(`adminMoney.periods.${p}`) }))}
        value={v.periods}
        onChange={(periods) => set({ periods: periods as ('month' | 'year')[] })}
      />
      <Group grow>
        <TextInput type="date" label={t('adminMoney.coupons.validFrom')} value={v.validFrom} onChange={(e) => set({ validFrom: e.currentTarget.value })} error={err('validFrom')} />
        <TextInput type="date" label={t('adminMoney.coupons.validTo')} value={v.validTo} onChange={(e) => set({ validTo: e.currentTarget.value })} error={err('validTo')} />
      </Group>
      <Group grow>
        <NumberInput label={t('adminMoney.coupons.maxRedemptions')} placeholder={t('adminMoney.coupons.unlimited')} min={1} allowDecimal={false} value={v.maxRedemptions} onChange={(x) => set({ maxRedemptions: x })} error={err('maxRedemptions')} />
        <Select
          label={t('adminMoney.coupons.duration')}
          data={(['once', 'forever'] as const).map((d) => ({ value: d, label: t(`adminMoney.coupons.durations.${d}`) }))}
          value={v.duration}
          onChange={(d) => d && set({ duration: d as 'once' | 'forever' })}
          allowDeselect={false}
        />
      </Group>
    </ResourceForm>
  );
}
