import { useId, type ReactNode } from 'react';

/** A titled card of the Settings page, as its other sections look; the heading labels it. */
export function SettingsCard({
  id,
  title,
  description,
  children,
}: {
  id?: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section id={id} aria-labelledby={headingId} className="scroll-mt-20 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id={headingId} className="text-lg font-bold text-slate-900">
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-slate-700">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}
