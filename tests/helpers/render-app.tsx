import { render, type RenderResult } from '@testing-library/react';
import { createStore } from 'jotai';
import type { ReactElement } from 'react';
import { AppProviders } from '../../components/app-shell/app-providers.tsx';
import { createQueryClient } from '../../components/app-shell/query-client.ts';
import { authActionAtom } from '../../shared/atoms/auth.ts';
import type { UserInfo } from '../../shared/contracts/user.ts';
import type { Platform } from '../../shared/platform/platform.ts';
import { extensionTabs } from '../../shared/platform/extension.ts';
import { startFreshClient } from './fake-api.ts';

export const testUser: UserInfo = { userId: 'u1', userName: 'Alice', email: 'alice@example.com', role: 'user', vipOrder: null };

export interface RenderAppOptions {
  apiBase: string;
  user?: UserInfo | null;
  platform?: Partial<Platform>;
  /** Runs on the fresh storage before the first render: what a test keeps "from before". */
  before?: () => Promise<void>;
}

/**
 * Renders `ui` inside the app's real provider stack, on fresh web storage, in English, talking to
 * `apiBase` (a real local HTTP server of the test).
 */
export async function renderInApp(
  ui: ReactElement,
  options: RenderAppOptions,
): Promise<RenderResult & { store: ReturnType<typeof createStore>; queryClient: ReturnType<typeof createQueryClient> }> {
  const i18n = await startFreshClient(options.apiBase);
  await options.before?.();
  const store = createStore();
  if (options.user) await store.set(authActionAtom, { type: 'login', token: 'test-token', userInfo: options.user });
  // An extension page gets the browser's tabs as its entrypoint gives them (the fake browser's here).
  const tabs = options.platform?.isExtension ? extensionTabs : null;
  const platform: Platform = { isExtension: false, scene: 'web', isH5: false, standalone: false, tabs, ...options.platform };
  const queryClient = createQueryClient();
  const result = render(
    <AppProviders store={store} queryClient={queryClient} i18n={i18n} platform={platform}>
      {ui}
    </AppProviders>,
  );
  return { ...result, store, queryClient };
}

/** Fires the jsdom IntersectionObserver stand-in of tests/setup/jsdom.ts. */
export function intersectAll(): void {
  (globalThis as { __intersectAll?: () => void }).__intersectAll?.();
}
