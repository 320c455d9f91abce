import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { DashboardSchema, type StatsQuery } from '../../shared/contracts/admin-stats.ts';
import { apiGet } from '../../shared/api/request.ts';

/** The console's dashboard (/api/admin/Statistic/GetDashboard): every figure aggregated by the database. */

export const adminStatsKey = ['admin', 'stats'] as const;

export function dashboardQuery(query: Pick<StatsQuery, 'from' | 'to' | 'timeZone'>) {
  return queryOptions({
    queryKey: [...adminStatsKey, 'dashboard', query] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/Statistic/GetDashboard', { ...query }, { data: DashboardSchema, signal }),
    // Another range keeps the figures of the last one on screen until its own arrive.
    placeholderData: keepPreviousData,
  });
}
