import i18next from 'i18next';

/** What a paged list query gives a table: one page of rows, the total, and whether a page is loading. */
export interface PagedRows<T> {
  data?: { list: T[]; total: number };
  isFetching: boolean;
}

export interface Paging {
  page: number;
  onPageChange: (page: number) => void;
  pageSize: number;
  /** Shown when the list is empty. */
  emptyText: string;
}

/**
 * The props every paged table of the console shares (mantine-datatable's DataTable), spread into it
 * beside its own columns: `<DataTable<Row> {...pagedTableProps(query, paging)} columns={...} />`.
 */
export function pagedTableProps<T>(rows: PagedRows<T>, { page, onPageChange, pageSize, emptyText }: Paging) {
  return {
    withTableBorder: true,
    minHeight: 160,
    records: rows.data?.list ?? [],
    fetching: rows.isFetching,
    totalRecords: rows.data?.total ?? 0,
    recordsPerPage: pageSize,
    page,
    onPageChange,
    noRecordsText: emptyText,
    // The pager's arrows, named in the reader's language (the library's own names are English).
    getPaginationControlProps: (control: string) =>
      control === 'previous' ? { 'aria-label': i18next.t('common.previousPage') } : control === 'next' ? { 'aria-label': i18next.t('common.nextPage') } : {},
  };
}
