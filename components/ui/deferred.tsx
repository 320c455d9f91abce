import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { ErrorBoundary } from './error-boundary.tsx';

export interface Deferred<P> {
  /** Renders nothing until the code is there, then the component; fetching starts at the first render. */
  Component: (props: P) => ReactNode;
  /**
   * Fetches the code now; once it has arrived, instances mounted afterwards render at once. Never
   * rejects: after a failed fetch the component's first render tries again.
   */
  preload: () => Promise<void>;
}

/**
 * A component whose code is a chunk of its own, fetched after the first screen instead of before it
 * (bench/README.md#bundle-what-a-user-downloads). Meant for what is not visible at first (a closed
 * dialog, a drawer): it is rendered from the start, so the chunk arrives while the page is idle and a
 * dialog opened later still fades in as before.
 */
export function deferred<P extends object>(load: () => Promise<ComponentType<P>>): Deferred<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const fetchCode = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(() => fetchCode().then((component) => ({ default: component })));

  function DeferredComponent(props: P) {
    // Chosen once per instance, so an instance never switches between the two (which would remount it).
    const [Impl] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>));
    // A chunk that does not arrive shows a small notice with Reload here, not a blank page.
    return (
      <ErrorBoundary inline>
        <Suspense fallback={null}>
          <Impl {...props} />
        </Suspense>
      </ErrorBoundary>
    );
  }
  const ignore = () => undefined;
  return { Component: DeferredComponent, preload: () => fetchCode().then(ignore, ignore) };
}
