import { Alert, Button, Code, Group, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminMoneyKey, exportRedeemBatch, generateRedeemBatch, MONEY_PAGE_SIZE, redeemBatchesQuery, redeemCodesQuery, setRedeemBatchDisabled } from './api.ts';
import { RedeemBatchCreateSchema, type RedeemBatch } from '../../shared/contracts/redeem-codes.ts';
import { planDate } from '../../shared/utils/plan-level.ts';
import { downloadText } from '../../components/ui/download.ts';
import { fieldMessages } from '../../components/ui/form-errors.ts';
import { IconDownload } from '../../components/ui/icons.tsx';
import { onMutationError } from '../../components/ui/notify.ts';
import { useSchemaSubmit } from '../ui/resource-form.tsx';
import { ResourceTable, type ResourceFormSlot } from '../ui/resource-table.tsx';
import { Modal } from '../../components/ui/overlays.tsx';
import { pagedTableProps } from '../../components/ui/paged-table.ts';
import { formatTime, levelKey } from './money-format.ts';
import { DisableButton, DisabledBadge } from './disabled-state.tsx';
import './strings.ts';

/** Redeem-code batches: generate, list, see and export the codes, disable. */
export function RedeemTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [viewing, setViewing] = useState<RedeemBatch | null>(null);
  const batches = useQuery(redeemBatchesQuery(page));
  const disable = useMutation({
    mutationFn: (b: RedeemBatch) => setRedeemBatchDisabled(b.id, !b.disabled),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminMoneyKey }),
    onError: onMutationError(),
  });
  const exportCsv = useMutation({
    mutationFn: (b: RedeemBatch) => exportRedeemBatch(b.id),
    onSuccess: ({ fileName, csv }) => downloadText(csv, fileName, 'text/csv'),
    onError: onMutationError(),
  });

  // Batches are generated, never edited: the form only makes new ones.
  return (
    <ResourceTable<RedeemBatch, GenerateBody, { count: number }>
      list={batches}
      queryKey={adminMoneyKey}
      newLabel={t('adminMoney.redeem.generate')}
      modalSize="md"
      form={(slot) => <GenerateForm {...slot} />}
      save={generateRedeemBatch}
      savedText={(created) => t('adminMoney.redeem.generated', { count: created.count })}
      table={() => (
        <>
          <DataTable<RedeemBatch>
            aria-label={t('adminMoney.tabs.redeem')}
            {...pagedTableProps(batches, { page, onPageChange: setPage, pageSize: MONEY_PAGE_SIZE, emptyText: t('adminMoney.noRecords') })}
            columns={[
              { accessor: 'name', title: t('adminMoney.redeem.name') },
              {
                accessor: 'points',
                title: t('adminMoney.redeem.gives'),
                render: (b) =>
                  [b.points ? t('adminMoney.redeem.points', { count: b.points }) : '', b.planDays ? t('adminMoney.redeem.planDays', { count: b.planDays, level: t(levelKey(b.planLevel)) }) : '']
                    .filter(Boolean)
                    .join(' + '),
              },
              { accessor: 'codeCount', title: t('adminMoney.redeem.codes'), textAlign: 'right' },
              { accessor: 'redeemedCount', title: t('adminMoney.redeem.redeemed'), textAlign: 'right' },
              { accessor: 'usesPerCode', title: t('adminMoney.redeem.usesPerCode'), textAlign: 'right' },
              { accessor: 'expiresAt', title: t('adminMoney.redeem.expires'), render: (b) => planDate(b.expiresAt) || t('adminMoney.redeem.never') },
              { accessor: 'createTime', title: t('adminMoney.created'), render: (b) => formatTime(b.createTime) },
              {
                accessor: 'disabled',
                title: t('adminMoney.status'),
                render: (b) => <DisabledBadge disabled={b.disabled} />,
              },
              {
                accessor: 'actions',
                title: t('adminMoney.actions'),
                render: (b) => (
                  <Group gap={4} wrap="nowrap">
                    <Button size="compact-xs" variant="subtle" onClick={() => setViewing(b)}>
                      {t('adminMoney.redeem.showCodes')}
                    </Button>
                    <Button size="compact-xs" variant="subtle" leftSection={<IconDownload size={12} />} loading={exportCsv.isPending && exportCsv.variables?.id === b.id} onClick={() => exportCsv.mutate(b)}>
                      {t('adminMoney.redeem.export')}
                    </Button>
                    <DisableButton disabled={b.disabled} busy={disable.isPending} onClick={() => disable.mutate(b)} />
                  </Group>
                ),
              },
            ]}
          />
          <Modal opened={viewing !== null} onClose={() => setViewing(null)} title={viewing?.name ?? ''} size="md">
            {viewing && <CodeList batchId={viewing.id} />}
          </Modal>
        </>
      )}
    />
  );
}

function CodeList({ batchId }: { batchId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const codes = useQuery(redeemCodesQuery(batchId, page));
  return (
    <DataTable
      {...pagedTableProps(codes, { page, onPageChange: setPage, pageSize: MONEY_PAGE_SIZE, emptyText: t('adminMoney.noRecords') })}
      minHeight={120}
      idAccessor="code"
      columns={[
        { accessor: 'code', title: t('adminMoney.redeem.code'), render: (c) => <Code>{c.code}</Code> },
        { accessor: 'uses', title: t('adminMoney.redeem.uses'), textAlign: 'right' },
      ]}
    />
  );
}

/** The contract's own problem codes, each with its sentence; any other problem is "check this value". */
const KNOWN_PROBLEMS = new Set(['redeemBatchEmpty', 'redeemPlanLevelRequired', 'redeemExpiryPast']);

type GenerateBody = Parameters<typeof generateRedeemBatch>[0];

function GenerateForm({ saving, onSave, onCancel }: ResourceFormSlot<RedeemBatch, GenerateBody>) {
  const { t } = useTranslation();
  const [values, setValues] = useState({ name: '', count: 10 as number | string, points: 0 as number | string, planDays: 0 as number | string, planLevel: 0, usesPerCode: 1 as number | string, expiresAt: '' });
  const set = (patch: Partial<typeof values>) => setValues((v) => ({ ...v, ...patch }));
  const build = (): GenerateBody => ({
      name: values.name,
      count: Number(values.count),
      points: Number(values.points),
      planDays: Number(values.planDays),
      planLevel: values.planLevel,
      usesPerCode: Number(values.usesPerCode),
      ...(values.expiresAt ? { expiresAt: values.expiresAt } : {}),
  });
  const { errors, submit } = useSchemaSubmit(RedeemBatchCreateSchema, build, onSave);
  const err = fieldMessages(errors, KNOWN_PROBLEMS, (code) => t(`adminMoney.redeem.invalid.${code}`), () => t('adminMoney.invalid'));
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label={t('adminMoney.redeem.name')} description={t('adminMoney.redeem.nameHint')} required value={values.name} onChange={(e) => set({ name: e.currentTarget.value })} error={err('name')} />
        <Group grow>
          <NumberInput label={t('adminMoney.redeem.count')} min={1} max={10000} allowDecimal={false} value={values.count} onChange={(v) => set({ count: v })} error={err('count')} />
          <NumberInput label={t('adminMoney.redeem.usesPerCode')} min={1} allowDecimal={false} value={values.usesPerCode} onChange={(v) => set({ usesPerCode: v })} error={err('usesPerCode')} />
        </Group>
        <Group grow>
          <NumberInput label={t('adminMoney.redeem.pointsEach')} min={0} allowDecimal={false} value={values.points} onChange={(v) => set({ points: v })} error={err('points')} />
          <NumberInput label={t('adminMoney.redeem.planDaysEach')} min={0} allowDecimal={false} value={values.planDays} onChange={(v) => set({ planDays: v })} error={err('planDays')} />
          <Select
            label={t('adminMoney.redeem.planLevel')}
            data={[0, 1, 2, 3].map((l) => ({ value: String(l), label: l === 0 ? t('adminMoney.redeem.noPlan') : t(levelKey(l)) }))}
            value={String(values.planLevel)}
            onChange={(v) => set({ planLevel: Number(v ?? 0) })}
            allowDeselect={false}
            error={err('planLevel')}
          />
        </Group>
        <TextInput type="date" label={t('adminMoney.redeem.expires')} value={values.expiresAt} onChange={(e) => set({ expiresAt: e.currentTarget.value })} error={err('expiresAt')} />
        {errors._ && (
          <Alert color="red" p="xs">
            {err('_')}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('adminMoney.cancel')}
          </Button>
          <Button type="submit" loading={saving}>
            {t('adminMoney.redeem.generate')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
