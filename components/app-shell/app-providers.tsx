import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import type { NotificationsProps } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import { Provider as JotaiProvider } from 'jotai';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { Platform } from '../../shared/platform/platform.ts';
import { deferred } from '../ui/deferred.tsx';
import { ErrorBoundary } from '../ui/error-boundary.tsx';
import '../ui/theme.css';
import { cssVariablesResolver, theme } from '../ui/theme.ts';
import { colorSchemeManager } from './color-scheme.ts';
import { PlatformContext } from './platform-context.tsx';
import type { JotaiStore } from './start.ts';

/**
 * Where toasts show: a chunk fetched after the first screen (with the overlay code it shares with the
 * dialogs). A toast raised before it arrives waits in the notifications store and shows then.
 */
const Notifications = deferred<NotificationsProps>(() => import('@mantine/notifications').then(({ Notifications }) => Notifications)).Component;

export interface AppProvidersProps {
  store: JotaiStore;
  queryClient: QueryClient;
  i18n: i18n;
  platform: Platform;
  children: ReactNode;
}

/** The one provider stack of every page (side panel, popup, web app): what startApp prepared, made available to React. */
export function AppProviders({ store, queryClient, i18n, platform, children }: AppProvidersProps) {
  return (
    <JotaiProvider store={store}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <PlatformContext.Provider value={platform}>
            <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
              {/* On a narrow screen below the top bar, so its buttons stay usable while a notice shows. */}
              <Notifications
                position={platform.isH5 ? 'top-center' : 'top-right'}
                classNames={platform.isH5 ? { root: 'tandem-notifications-narrow' } : undefined}
              />
              {/* The last way out of every page (popup, login, console…) when nothing nearer caught the failure. */}
              <ErrorBoundary>{children}</ErrorBoundary>
            </MantineProvider>
          </PlatformContext.Provider>
        </QueryClientProvider>
      </I18nextProvider>
    </JotaiProvider>
  );
}
