import { getApiBase } from '../../shared/api/request.ts';
import { usePlatform } from './platform-context.tsx';
import { useSystemSetting } from './system-settings.ts';

/**
 * Opens `url` outside this page: a new tab. The side panel cannot host another site's page (Stripe's
 * checkout, its portal), and an extension page opening a window gets a tab of the browser.
 */
export function openInNewTab(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}

/**
 * Sends the browser to `url`: the web page goes there itself (and comes back through the address
 * the other site returns to); an extension page opens it in a new tab.
 */
export function useGoOutside(): (url: string) => void {
  const { isExtension } = usePlatform();
  return (url) => (isExtension ? openInNewTab(url) : window.location.assign(url));
}

/**
 * Where the plans are shown (the vip_url setting, PUBLIC_URL/pricing by default): on the web page,
 * the app's own /pricing when vip_url is this site's (or not set); in the extension, vip_url (or the
 * server's /pricing) in a new tab, since the side panel cannot host Stripe's checkout.
 */
export function usePlansLink(): (navigate: (path: string) => void, query?: string) => void {
  const { isExtension } = usePlatform();
  const vipUrl = useSystemSetting('vip_url').value;
  return (navigate, query) => {
    // `query` (a coupon to apply, for example) goes along to whichever plans page opens.
    const withQuery = (url: string) => (query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url);
    if (isExtension) return openInNewTab(withQuery(vipUrl || `${getApiBase() || window.location.origin}/pricing`));
    if (!vipUrl) return navigate(withQuery('/pricing'));
    try {
      const target = new URL(vipUrl, window.location.href);
      if (target.origin === window.location.origin) return navigate(withQuery(`${target.pathname}${target.search}`));
    } catch {
      return navigate(withQuery('/pricing'));
    }
    openInNewTab(withQuery(vipUrl));
  };
}
