import { ActionIcon, Badge, Button, Group, Loader, NumberInput, Select, Switch, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminMoneyKey, adminPackageModelsQuery, adminPackagesQuery, deleteAdminPackage, saveAdminPackage, type SavePackageInput } from './api.ts';
import { ResourceForm, useSchemaSubmit } from '../ui/resource-form.tsx';
import { ResourceTable, type ResourceFormSlot } from '../ui/resource-table.tsx';
import { SaveVipPackageSchema, type AdminVipPackage } from '../../shared/contracts/plans.ts';
import { IconPencil, IconTrash, IconX } from '../../components/ui/icons.tsx';
import { formatMoney } from '../../shared/utils/money.ts';
import { levelKey } from './money-format.ts';
import './strings.ts';
import { planName } from '../../shared/utils/plan-level.ts';

/** Plans and prices: the VIP packages on sale, their prices per currency and Stripe price ids. */
export function PlansTab() {
  const { t, i18n } = useTranslation();
  const packages = useQuery(adminPackagesQuery());

  return (
    <ResourceTable<AdminVipPackage, SavePackageInput>
      list={packages}
      queryKey={adminMoneyKey}
      newLabel={t('adminMoney.plans.new')}
      editTitle={t('adminMoney.plans.edit')}
      formKey={(p) => p.vipPackageId}
      save={saveAdminPackage}
      savedText={t('adminMoney.saved')}
      remove={{
        call: (p) => deleteAdminPackage(p.vipPackageId),
        title: t('adminMoney.plans.deleteTitle'),
        message: (p) => t('adminMoney.plans.deleteMessage', { name: p?.name ?? '' }),
        confirmLabel: t('adminMoney.delete'),
        cancelLabel: t('adminMoney.cancel'),
      }}
      form={(slot) => <PackageForm {...slot} />}
      table={({ edit, askDelete }) => (
        <>
          {packages.isPending && <Loader />}
          {packages.data?.length === 0 && <Text c="dimmed">{t('adminMoney.plans.empty')}</Text>}
          {packages.data && packages.data.length > 0 && (
            <Table.ScrollContainer minWidth={960}>
              <Table aria-label={t('adminMoney.tabs.plans')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('adminMoney.plans.name')}</Table.Th>
                    <Table.Th>{t('adminMoney.plans.level')}</Table.Th>
                    <Table.Th>{t('adminMoney.plans.period')}</Table.Th>
                    <Table.Th>{t('adminMoney.plans.prices')}</Table.Th>
                    <Table.Th>{t('adminMoney.plans.monthlyPoints')}</Table.Th>
                    <Table.Th>{t('adminMoney.plans.models')}</Table.Th>
                    <Table.Th>{t('adminMoney.plans.online')}</Table.Th>
                    <Table.Th>{t('adminMoney.actions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {packages.data.map((p) => (
                    <Table.Tr key={p.vipPackageId}>
                      <Table.Td>
                        {planName(p.level, p.name, t)} {p.bestDeal && <Badge size="xs">{t('adminMoney.plans.bestDeal')}</Badge>}
                        <Text size="xs" c="dimmed" translate="no">
                          {p.vipPackageId}
                        </Text>
                      </Table.Td>
                      <Table.Td>{t(levelKey(p.level))}</Table.Td>
                      <Table.Td>{t(`adminMoney.periods.${p.period}`)}</Table.Td>
                      <Table.Td>
                        {Object.entries(p.prices)
                          .map(([currency, amount]) => formatMoney(amount, currency, i18n.language))
                          .join(' · ')}
                      </Table.Td>
                      <Table.Td>{p.monthlyPoints}</Table.Td>
                      <Table.Td>
                        <PackageModels vipPackageId={p.vipPackageId} />
                      </Table.Td>
                      <Table.Td>{p.online ? t('adminMoney.yes') : t('adminMoney.no')}</Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <ActionIcon variant="subtle" aria-label={t('adminMoney.editNamed', { name: planName(p.level, p.name, t) })} onClick={() => edit(p)}>
                            <IconPencil size={16} />
                          </ActionIcon>
                          <ActionIcon variant="subtle" color="red" aria-label={t('adminMoney.deleteNamed', { name: planName(p.level, p.name, t) })} onClick={() => askDelete(p)}>
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </>
      )}
    />
  );
}

/** What a package unlocks, as the pricing page lists it: how many models, and their names in catalogue order. */
function PackageModels({ vipPackageId }: { vipPackageId: string }) {
  const { t, i18n } = useTranslation();
  const models = useQuery(adminPackageModelsQuery(vipPackageId));
  if (models.isPending) return <Loader size="xs" />;
  if (models.isError) {
    return (
      <Text size="sm" c="red" data-testid="package-models">
        {t('adminMoney.plans.modelsFailed')}
      </Text>
    );
  }
  const list = models.data.list;
  if (list.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="package-models">
        {t('adminMoney.plans.noModels')}
      </Text>
    );
  }
  return (
    <div data-testid="package-models" style={{ maxWidth: 320 }}>
      <Badge size="sm" variant="light" data-testid="package-model-count">
        {t('adminMoney.plans.modelCount', { count: list.length })}
      </Badge>
      <Text size="xs" c="dimmed" mt={4} translate="no" data-testid="package-model-names">
        {list.map((m) => m.name).join(i18n.language === 'zh' ? '、' : ', ')}
      </Text>
    </div>
  );
}

interface PriceRow {
  currency: string;
  amount: number | string;
  stripePriceId: string;
}

function PackageForm({ existing, saving, onSave, onCancel }: ResourceFormSlot<AdminVipPackage, SavePackageInput>) {
  const { t } = useTranslation();
  const [id, setId] = useState('');
  const [name, setName] = useState(existing?.name ?? '');
  const [level, setLevel] = useState(existing?.level ?? 1);
  const [period, setPeriod] = useState<'month' | 'year'>(existing?.period ?? 'month');
  const [prices, setPrices] = useState<PriceRow[]>(() =>
    existing ? Object.entries(existing.prices).map(([currency, amount]) => ({ currency, amount, stripePriceId: existing.stripePriceIds[currency] ?? '' })) : [{ currency: 'usd', amount: '', stripePriceId: '' }],
  );
  const [monthlyPoints, setMonthlyPoints] = useState<number | string>(existing?.monthlyPoints ?? 0);
  const [bestDeal, setBestDeal] = useState(existing?.bestDeal ?? false);
  const [online, setOnline] = useState(existing?.online ?? true);
  const [sort, setSort] = useState<number | string>(existing?.sort ?? 0);
  const setPrice = (index: number, row: Partial<PriceRow>) => setPrices((all) => all.map((p, i) => (i === index ? { ...p, ...row } : p)));

  const build = (): SavePackageInput => ({
    ...(existing ? { vipPackageId: existing.vipPackageId } : id.trim() ? { vipPackageId: id.trim() } : {}),
    ...(name.trim() ? { name: name.trim() } : {}),
    level,
    period,
    prices: Object.fromEntries(prices.map((p) => [p.currency.trim().toLowerCase(), p.amount === '' ? Number.NaN : Number(p.amount)])),
    stripePriceIds: Object.fromEntries(prices.filter((p) => p.stripePriceId.trim()).map((p) => [p.currency.trim().toLowerCase(), p.stripePriceId.trim()])),
    monthlyPoints: Number(monthlyPoints),
    bestDeal,
    online,
    sort: Number(sort),
  });
  const { errors, submit } = useSchemaSubmit(SaveVipPackageSchema, build, onSave);
  const priceError = Object.keys(errors).some((k) => k.startsWith('prices') || k.startsWith('stripePriceIds'));

  return (
    <ResourceForm onSubmit={submit} saving={saving} onCancel={onCancel} cancelLabel={t('adminMoney.cancel')} saveLabel={t('adminMoney.save')}>
      {!existing && <TextInput label={t('adminMoney.plans.id')} description={t('adminMoney.plans.idHint')} value={id} onChange={(e) => setId(e.currentTarget.value)} error={errors.vipPackageId && t('adminMoney.plans.idInvalid')} />}
      <TextInput label={t('adminMoney.plans.name')} description={t('adminMoney.plans.nameHint')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name && t('adminMoney.invalid')} />
      <Group grow>
        <Select
          label={t('adminMoney.plans.level')}
          data={[1, 2, 3].map((l) => ({ value: String(l), label: t(levelKey(l)) }))}
          value={String(level)}
          onChange={(v) => setLevel(Number(v ?? 1))}
          allowDeselect={false}
        />
        <Select
          label={t('adminMoney.plans.period')}
          data={(['month', 'year'] as const).map((p) => ({ value: p, label: t(`adminMoney.periods.${p}`) }))}
          value={period}
          onChange={(v) => v && setPeriod(v as 'month' | 'year')}
          allowDeselect={false}
        />
      </Group>
      <Text size="sm" fw={500}>
        {t('adminMoney.plans.prices')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('adminMoney.plans.pricesHint')}
      </Text>
      {prices.map((p, index) => (
        <Group key={index} align="flex-end" wrap="nowrap">
          <TextInput w={90} label={t('adminMoney.plans.currency')} value={p.currency} onChange={(e) => setPrice(index, { currency: e.currentTarget.value })} />
          <NumberInput w={160} label={t('adminMoney.plans.amount')} min={0} allowDecimal={false} value={p.amount} onChange={(v) => setPrice(index, { amount: v })} />
          <TextInput style={{ flex: 1 }} label={t('adminMoney.plans.stripePriceId')} placeholder="price_..." value={p.stripePriceId} onChange={(e) => setPrice(index, { stripePriceId: e.currentTarget.value })} />
          <ActionIcon variant="subtle" color="red" mb={4} aria-label={t('adminMoney.plans.removePrice')} disabled={prices.length === 1} onClick={() => setPrices((all) => all.filter((_, i) => i !== index))}>
            <IconX size={16} />
          </ActionIcon>
        </Group>
      ))}
      {priceError && (
        <Text size="sm" c="red">
          {t('adminMoney.plans.pricesInvalid')}
        </Text>
      )}
      <Group>
        <Button size="xs" variant="light" onClick={() => setPrices((all) => [...all, { currency: '', amount: '', stripePriceId: '' }])}>
          {t('adminMoney.plans.addPrice')}
        </Button>
      </Group>
      <Group grow>
        <NumberInput label={t('adminMoney.plans.monthlyPoints')} min={0} allowDecimal={false} value={monthlyPoints} onChange={setMonthlyPoints} error={errors.monthlyPoints && t('adminMoney.invalid')} />
        <NumberInput label={t('adminMoney.plans.sort')} allowDecimal={false} value={sort} onChange={setSort} error={errors.sort && t('adminMoney.invalid')} />
      </Group>
      <Group>
        <Switch label={t('adminMoney.plans.bestDeal')} checked={bestDeal} onChange={(e) => setBestDeal(e.currentTarget.checked)} />
        <Switch label={t('adminMoney.plans.online')} checked={online} onChange={(e) => setOnline(e.currentTarget.checked)} />
      </Group>
    </ResourceForm>
  );
}
