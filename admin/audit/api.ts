import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { AuditPageSchema, type AuditListQuery } from '../../shared/contracts/audit.ts';
import { apiGet } from '../../shared/api/request.ts';

/** The admin audit log (/api/admin/AuditLog/GetList): read-only, newest first. */

export const auditKey = ['admin', 'audit'] as const;

export const AUDIT_PAGE_SIZE = 25;

/** A filter not chosen is undefined (not ''): the request helper leaves it out of the address. */
export type AuditFilters = Partial<Omit<AuditListQuery, 'page' | 'count'>>;

export function auditListQuery(page: number, filters: AuditFilters) {
  return queryOptions({
    queryKey: [...auditKey, 'list', page, filters] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/AuditLog/GetList', { page, count: AUDIT_PAGE_SIZE, ...filters }, { data: AuditPageSchema, signal }),
    placeholderData: keepPreviousData,
  });
}
