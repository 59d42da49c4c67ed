/** The full-screen spinner shown while a lazily loaded page or the session loads. */
export function FullScreenSpinner({ label = 'Loading Content...' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-4 bg-white">
      <span aria-hidden="true" className="size-10 rounded-full border-4 border-indigo-200 border-t-indigo-700 motion-safe:animate-spin" />
      <p className="text-base font-medium text-slate-700">{label}</p>
    </div>
  );
}
