import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Alert, Button, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import 'mantine-datatable/styles.css';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { dashboardQuery } from './api.ts';
import { STATS_MAX_DAYS, type Dashboard } from '../../shared/contracts/admin-stats.ts';
import { formatMoney } from '../../shared/utils/money.ts';
import { browserTimeZone, errorRate, lastDays, perModelRows, rangeProblem, type DayRange } from './dashboard-data.ts';
import { StatCard } from '../ui/stat-card.tsx';
import en from '../../locales/features/admin-dashboard.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';

addEnglishStrings(en);

const PRESETS = ['7', '30', '90', '365'] as const;
/** The two ends of the range, each a date field. */
const RANGE_ENDS = ['from', 'to'] as const;
type RangeEnd = (typeof RANGE_ENDS)[number];

/** /admin: how the service is doing over a date range (last 30 days at first), all figures from the server. */
export function DashboardPage({ today }: { today?: Date } = {}) {
  const { t } = useTranslation();
  const [timeZone] = useState(browserTimeZone);
  const [range, setRange] = useState<DayRange>(() => lastDays(30, today));
  const problem = rangeProblem(range, STATS_MAX_DAYS);
  // The last valid range stays on screen while a date is being typed.
  const [asked, setAsked] = useState<DayRange>(range);
  if (!problem && (asked.from !== range.from || asked.to !== range.to)) setAsked(range);
  const dashboard = useQuery(dashboardQuery({ ...asked, timeZone }));

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={2}>{t('adminDashboard.title')}</Title>
        <RangePicker range={range} onChange={setRange} problem={problem} timeZone={timeZone} today={today} />
      </Group>
      {dashboard.isError && (
        <Alert color="red" role="alert">
          <Group justify="space-between">
            <Text size="sm">{t('adminDashboard.loadFailed', { message: dashboard.error.message })}</Text>
            <Button size="xs" variant="default" onClick={() => void dashboard.refetch()}>
              {t('adminDashboard.retry')}
            </Button>
          </Group>
        </Alert>
      )}
      {dashboard.data && <DashboardFigures data={dashboard.data} fetching={dashboard.isFetching} />}
    </Stack>
  );
}

function RangePicker({
  range,
  onChange,
  problem,
  timeZone,
  today,
}: {
  range: DayRange;
  onChange: (range: DayRange) => void;
  problem: ReturnType<typeof rangeProblem>;
  timeZone: string;
  today?: Date;
}) {
  const { t } = useTranslation();
  const error = (field: RangeEnd) =>
    problem?.field === field ? t(`adminDashboard.range.${problem.key}`, { days: STATS_MAX_DAYS }) : undefined;
  const preset = PRESETS.find((days) => {
    const candidate = lastDays(Number(days), today);
    return candidate.from === range.from && candidate.to === range.to;
  });
  return (
    <Stack gap={4} role="group" aria-label={t('adminDashboard.range.label')}>
      <Group gap="sm" align="flex-start">
        <SegmentedControl
          size="xs"
          mt={24}
          value={preset ?? ''}
          onChange={(days) => onChange(lastDays(Number(days), today))}
          data={PRESETS.map((days) => ({ value: days, label: t(`adminDashboard.range.preset${days}`) }))}
        />
        {RANGE_ENDS.map((end) => (
          <TextInput
            key={end}
            type="date"
            size="xs"
            label={t(`adminDashboard.range.${end}`)}
            value={range[end]}
            // Each end keeps to its side of the other.
            {...(end === 'from' ? { max: range.to } : { min: range.from })}
            error={error(end)}
            onChange={(event) => onChange({ ...range, [end]: event.currentTarget.value })}
          />
        ))}
      </Group>
      <Text size="xs" c="dimmed" ta="right">
        {t('adminDashboard.range.timeZone', { timeZone })}
      </Text>
    </Stack>
  );
}

function useNumber() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const format = new Intl.NumberFormat(i18n.language);
    return (n: number) => format.format(n);
  }, [i18n.language]);
}

function DashboardFigures({ data, fetching }: { data: Dashboard; fetching: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" aria-busy={fetching} data-testid="dashboard-figures" data-from={data.from} data-to={data.to}>
      <Cards data={data} />
      <Charts data={data} />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <DeploymentsTable data={data} />
        <ModelsTable data={data} />
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {t('adminDashboard.cards.activeNote')}
      </Text>
    </Stack>
  );
}

function Cards({ data }: { data: Dashboard }) {
  const { t, i18n } = useTranslation();
  const n = useNumber();
  const { totals } = data;
  const revenue = data.revenue.length
    ? data.revenue.map((r) => formatMoney(r.amount, r.currency, i18n.language)).join(' · ')
    : t('adminDashboard.cards.revenueNone');
  const orders = data.revenue.reduce((sum, r) => sum + r.orders, 0);
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="md">
      <StatCard testId="card-active-day" label={t('adminDashboard.cards.activeDay')} value={n(data.activeUsers.day)} />
      <StatCard testId="card-active-week" label={t('adminDashboard.cards.activeWeek')} value={n(data.activeUsers.week)} />
      <StatCard testId="card-active-month" label={t('adminDashboard.cards.activeMonth')} value={n(data.activeUsers.month)} />
      <StatCard testId="card-sign-ups" label={t('adminDashboard.cards.signUps')} value={n(totals.signUps)} />
      <StatCard testId="card-messages" label={t('adminDashboard.cards.messages')} value={n(totals.messages)} />
      <StatCard
        testId="card-tokens"
        label={t('adminDashboard.cards.tokens')}
        value={n(totals.inputTokens + totals.outputTokens)}
        detail={t('adminDashboard.cards.tokensDetail', { input: n(totals.inputTokens), output: n(totals.outputTokens) })}
      />
      <StatCard testId="card-points-spent" label={t('adminDashboard.cards.pointsSpent')} value={n(totals.pointsSpent)} />
      <StatCard testId="card-points-granted" label={t('adminDashboard.cards.pointsGranted')} value={n(totals.pointsGranted)} />
      <StatCard
        testId="card-revenue"
        label={t('adminDashboard.cards.revenue')}
        value={revenue}
        detail={data.revenue.length ? t('adminDashboard.cards.revenueOrders', { count: orders }) : undefined}
      />
      <StatCard
        testId="card-subscriptions"
        label={t('adminDashboard.cards.activeSubscriptions')}
        value={n(data.activeSubscriptions)}
        detail={t('adminDashboard.cards.activePlansCount', { count: n(data.activePlans) })}
      />
    </SimpleGrid>
  );
}

function ChartPanel({ title, empty, children }: { title: string; empty: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="md" role="figure" aria-label={title}>
      <Title order={3} size="h5" mb="sm">
        {title}
      </Title>
      {empty ? (
        <Text size="sm" c="dimmed">
          {t('adminDashboard.charts.empty')}
        </Text>
      ) : (
        children
      )}
    </Paper>
  );
}

function Charts({ data }: { data: Dashboard }) {
  const { t } = useTranslation();
  const messages = useMemo(() => perModelRows(data.days, data.modelDays, data.models, 'messages'), [data]);
  const tokens = useMemo(() => perModelRows(data.days, data.modelDays, data.models, 'tokens'), [data]);
  const signUps = useMemo(() => data.days.map(({ day, signUps }) => ({ day, signUps })), [data]);
  const noMessages = data.totals.messages === 0;
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
      <ChartPanel title={t('adminDashboard.charts.messagesByModel')} empty={noMessages}>
        <BarChart h={240} data={messages.rows} dataKey="day" type="stacked" series={messages.series} withLegend tickLine="y" />
      </ChartPanel>
      <ChartPanel title={t('adminDashboard.charts.tokensByModel')} empty={noMessages}>
        <BarChart h={240} data={tokens.rows} dataKey="day" type="stacked" series={tokens.series} withLegend tickLine="y" />
      </ChartPanel>
      <ChartPanel title={t('adminDashboard.charts.signUps')} empty={data.totals.signUps === 0}>
        <BarChart
          h={200}
          data={signUps}
          dataKey="day"
          series={[{ name: 'signUps', label: t('adminDashboard.cards.signUps'), color: 'teal.6' }]}
          tickLine="y"
        />
      </ChartPanel>
    </SimpleGrid>
  );
}

/**
 * A table of the dashboard under its heading (`adminDashboard.{strings}.title`); an empty one keeps
 * room for its "nothing yet" text (`….empty`).
 */
function TitledTable<T>({ strings, records, ...table }: { strings: 'deployments' | 'models'; records: T[]; idAccessor: keyof T & string; columns: DataTableColumn<T>[] }) {
  const { t } = useTranslation();
  const title = t(`adminDashboard.${strings}.title`);
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {title}
      </Title>
      <DataTable<T> aria-label={title} noRecordsText={t(`adminDashboard.${strings}.empty`)} withTableBorder borderRadius="md" minHeight={records.length ? undefined : 120} records={records} {...table} />
    </Stack>
  );
}

/** A right-aligned column of figures. */
function figureColumn<T>(accessor: string, title: string, render: (row: T) => ReactNode): DataTableColumn<T> {
  return { accessor, title, textAlign: 'right', render };
}

type DeploymentRow = Dashboard['deployments'][number];
type ModelRow = Dashboard['models'][number];

function DeploymentsTable({ data }: { data: Dashboard }) {
  const { t, i18n } = useTranslation();
  const n = useNumber();
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  const modelName = new Map(data.models.map((m) => [m.aiModelId, m.modelName]));
  return (
    <TitledTable
      strings="deployments"
      idAccessor="deploymentId"
      records={data.deployments}
      columns={[
        {
          accessor: 'deploymentId',
          title: t('adminDashboard.deployments.deployment'),
          // The provider and the upstream model's id are identifiers, the same in every language.
          render: (d) => (d.provider ? <span translate="no">{`${d.provider} · ${d.upstreamModelId ?? ''}`}</span> : `${d.deploymentId} ${t('adminDashboard.deployments.deleted')}`),
        },
        { accessor: 'aiModelId', title: t('adminDashboard.deployments.model'), render: (d) => (d.aiModelId ? (modelName.get(d.aiModelId) ?? d.aiModelId) : '') },
        figureColumn<DeploymentRow>('messages', t('adminDashboard.deployments.messages'), (d) => n(d.messages)),
        figureColumn<DeploymentRow>('errors', t('adminDashboard.deployments.errors'), (d) => n(d.errors)),
        figureColumn<DeploymentRow>('failovers', t('adminDashboard.deployments.failovers'), (d) => n(d.failovers)),
        figureColumn<DeploymentRow>('rate', t('adminDashboard.deployments.errorRate'), (d) => {
          const rate = errorRate(d.messages, d.errors);
          return rate === null ? '—' : percent.format(rate);
        }),
      ]}
    />
  );
}

function ModelsTable({ data }: { data: Dashboard }) {
  const { t } = useTranslation();
  const n = useNumber();
  return (
    <TitledTable
      strings="models"
      idAccessor="aiModelId"
      records={data.models}
      columns={[
        { accessor: 'modelName', title: t('adminDashboard.models.model') },
        figureColumn<ModelRow>('messages', t('adminDashboard.models.messages'), (m) => n(m.messages)),
        figureColumn<ModelRow>('tokens', t('adminDashboard.models.tokens'), (m) => n(m.inputTokens + m.outputTokens)),
        figureColumn<ModelRow>('estimatedMessages', t('adminDashboard.models.estimated'), (m) => n(m.estimatedMessages)),
        figureColumn<ModelRow>('avgFirstTokenMs', t('adminDashboard.models.avgFirstToken'), (m) =>
          m.avgFirstTokenMs === null ? t('adminDashboard.models.none') : t('adminDashboard.models.ms', { value: n(Math.round(m.avgFirstTokenMs)) }),
        ),
      ]}
    />
  );
}
