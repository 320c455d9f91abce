import { Center, Loader } from '@mantine/core';
import { Suspense, type ReactNode } from 'react';
import { ErrorBoundary } from '../ui/error-boundary.tsx';

/**
 * What a page fetched when first opened shows until its chunk is here: a small spinner in the middle
 * of the screen. The routes of app-routes.tsx and plans-routes.tsx wrap their lazy pages in it. A
 * page whose chunk does not arrive, or that throws, shows a way out in its place (ErrorBoundary).
 */
export function PageSuspense({ children }: { children: ReactNode }) {
  return (
    <ErrorBoundary>
      <Suspense
        fallback={
          <Center h="100dvh">
            <Loader size="sm" />
          </Center>
        }
      >
        {children}
      </Suspense>
    </ErrorBoundary>
  );
}
