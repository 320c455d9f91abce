import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import './strings.ts';

/** Dates and numbers of the Users pages, in the console's language. */
export function useUserFormat() {
  const { i18n, t } = useTranslation();
  return useMemo(() => {
    const number = new Intl.NumberFormat(i18n.language);
    const dateTime = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
    const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
    const valid = (iso: string) => !Number.isNaN(new Date(iso).getTime());
    return {
      number: (n: number) => number.format(n),
      dateTime: (iso: string | null) => (iso && valid(iso) ? dateTime.format(new Date(iso)) : t('adminUsers.never')),
      date: (iso: string | null) => (iso && valid(iso) ? date.format(new Date(iso)) : ''),
      /** "Standard until 1 Dec 2026", or "Free". */
      plan: (level: number, endTime: string | null) => {
        const name = t(`adminUsers.plan.${Math.max(0, Math.min(3, level))}`);
        return level > 0 && endTime && valid(endTime) ? t('adminUsers.planUntil', { plan: name, date: date.format(new Date(endTime)) }) : name;
      },
    };
  }, [i18n.language, t]);
}
