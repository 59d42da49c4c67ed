import { lazy, Suspense, useState } from 'react';
import { useToast } from '../lib/toast';

const Toaster = lazy(() => import('./Toaster').then((m) => ({ default: m.Toaster })));

/**
 * The landing island's toast area, loaded with the first toast rather than with the page (Radix
 * Toast is about 12 kB gzip, beyond the landing page's budget): toasts raised meanwhile wait in
 * lib/toast, and it stays once loaded. The app has its toast area always present (App.tsx).
 */
export function LazyToaster() {
  const { toasts } = useToast();
  const [wanted, setWanted] = useState(false);
  if (toasts.length > 0 && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
