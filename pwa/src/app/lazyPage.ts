import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A lazily loaded component whose code can be fetched before it first renders. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any props, as React.lazy itself takes
export type Preloadable<T extends ComponentType<any>> = LazyExoticComponent<T> & { preload(): Promise<unknown> };

/**
 * React.lazy that can start early: the page a tab opens on fetches its code beside the session
 * check instead of after it. One load serves both; a failed one is tried again on the next call.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export function lazyPage<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): Preloadable<T> {
  let loading: Promise<{ default: T }> | null = null;
  const once = () => {
    if (!loading) {
      const attempt = load();
      attempt.catch(() => loading === attempt && (loading = null));
      loading = attempt;
    }
    return loading;
  };
  return Object.assign(lazy(once), { preload: once });
}

/** Starts loading whatever of `components` can be preloaded; errors wait for the render that needs them. */
export function preload(...components: unknown[]) {
  for (const c of components) {
    const load = (c as { preload?: () => Promise<unknown> } | null)?.preload;
    if (typeof load === 'function') load().catch(() => undefined);
  }
}
