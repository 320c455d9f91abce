import { Center, Loader } from '@mantine/core';
import { Suspense, type ReactNode } from 'react';

/**
 * What a page fetched when first opened shows until its chunk is here: a small spinner in the middle
 * of the screen. The routes of app-routes.tsx and plans-routes.tsx wrap their lazy pages in it.
 */
export function PageSuspense({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <Center h="100dvh">
          <Loader size="sm" />
        </Center>
      }
    >
      {children}
    </Suspense>
  );
}
