import { useQuery } from '@tanstack/react-query';
import { getSettingListAll, settingValue } from '../../shared/api/system.ts';

/** The public system settings (login_page_url, vip_url, ...); getSettingListAll keeps them 5 minutes. */
export function useSystemSetting(key: string): { value: string | undefined; isPending: boolean; isError: boolean } {
  const query = useQuery({ queryKey: ['system-settings'], queryFn: () => getSettingListAll() });
  return { value: query.data ? settingValue(query.data, key) : undefined, isPending: query.isPending, isError: query.isError };
}
