import { Trans } from '@lingui/react/macro';
/**
 * The full-screen spinner shown while a lazily loaded page or the session loads. It stands in for
 * the page, landmark included: the skip link keeps its target and nothing sits outside a landmark.
 */
export function FullScreenSpinner({ label }: { label?: string }) {
  return (
    <main id="main" className="fixed inset-0 z-50 bg-white">
      <div role="status" aria-live="polite" className="flex h-full flex-col items-center justify-center gap-4">
        <span aria-hidden="true" className="size-10 rounded-full border-4 border-indigo-200 border-t-indigo-700 motion-safe:animate-spin" />
        <p className="text-base font-medium text-slate-700">{label ?? <Trans>Loading Content...</Trans>}</p>
      </div>
    </main>
  );
}
