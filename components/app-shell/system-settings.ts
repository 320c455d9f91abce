import { useQuery } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { getSettingListAll, settingValue } from '../../shared/api/system.ts';
import { authActionAtom, systemConfigAtom } from '../../shared/atoms/auth.ts';

/**
 * The public system settings (login_page_url, vip_url, ...); getSettingListAll keeps them 5 minutes.
 * The last copy is kept in the Auth store (spec §3 systemConfig), so a page that opens offline or
 * before the server answers already knows where the login page is.
 */
export function useSystemSetting(key: string): { value: string | undefined; isPending: boolean; isError: boolean } {
  const stored = useAtomValue(systemConfigAtom);
  const auth = useSetAtom(authActionAtom);
  const query = useQuery({
    queryKey: ['system-settings'],
    queryFn: async () => {
      const settings = await getSettingListAll();
      void auth({ type: 'systemConfig', settings });
      return settings;
    },
    placeholderData: stored.length > 0 ? stored : undefined,
  });
  return { value: query.data ? settingValue(query.data, key) : undefined, isPending: query.isPending, isError: query.isError };
}
