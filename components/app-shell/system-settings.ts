import { useQuery } from '@tanstack/react-query';
import { useSetAtom } from 'jotai';
import { getSettingListAll, settingValue } from '../../shared/api/system.ts';
import { authActionAtom, systemConfigPersisted } from '../../shared/atoms/auth.ts';
import { peekPersisted } from '../../shared/storage/active.ts';

/**
 * The public system settings (login_page_url, vip_url, ...); getSettingListAll keeps them 5 minutes.
 * The last copy is kept in the Auth store (systemConfig), so a page that opens offline or
 * before the server answers already knows where the login page is.
 */
export function useSystemSetting(key: string): { value: string | undefined; isPending: boolean; isError: boolean; error: unknown } {
  const auth = useSetAtom(authActionAtom);
  const query = useQuery({
    queryKey: ['system-settings'],
    queryFn: async () => {
      const settings = await getSettingListAll();
      void auth({ type: 'systemConfig', settings });
      return settings;
    },
    // Read when the query starts, not subscribed: storing the answer must not render every caller again.
    placeholderData: () => {
      const stored = peekPersisted(systemConfigPersisted);
      return stored.length > 0 ? stored : undefined;
    },
  });
  return { value: query.data ? settingValue(query.data, key) : undefined, isPending: query.isPending, isError: query.isError, error: query.error };
}
