import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { DocumentTitle } from '../../components/DocumentTitle';

export const LEGAL_LAST_UPDATED = '2026-11-28';

export type LegalSection = { id: string; heading: string; body: ReactNode };

const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700';

/** An in-text link with the document's styling. */
export function DocLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className={`font-medium text-indigo-800 underline underline-offset-2 hover:text-indigo-950 ${focusRing}`}>
      {children}
    </Link>
  );
}

const others = [
  { to: '/terms-of-service', label: 'Terms of Service' },
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/rules', label: 'Community Rules' },
];

/**
 * The shared layout of the legal texts: title, last-updated date, a table of contents that stays
 * in view on wide screens, and numbered sections with readable measure and spacing.
 */
export function LegalDocument({ title, summary, sections }: { title: string; summary: ReactNode; sections: LegalSection[] }) {
  const updated = new Date(`${LEGAL_LAST_UPDATED}T12:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return (
    <main id="main" className="bg-white">
      <DocumentTitle title={`${title} · Parley`} />
      <div className="border-b border-slate-200 bg-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 md:py-16">
          <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">Parley</p>
          <h1 className="mt-2 text-4xl font-bold tracking-tight text-slate-950 sm:text-5xl">{title}</h1>
          <p className="mt-4 text-sm text-slate-700">
            Last updated: <time dateTime={LEGAL_LAST_UPDATED}>{updated}</time>
          </p>
          <div className="mt-6 max-w-3xl text-lg leading-relaxed text-slate-700">{summary}</div>
        </div>
      </div>
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[16rem_1fr]">
        <aside className="lg:sticky lg:top-24 lg:max-h-[calc(100dvh-7rem)] lg:self-start lg:overflow-y-auto">
          <nav aria-labelledby="toc-title">
            <h2 id="toc-title" className="text-sm font-semibold tracking-wide text-slate-950 uppercase">
              Contents
            </h2>
            <ol className="mt-3 grid gap-1 border-l border-slate-200 text-sm">
              {sections.map((s, i) => (
                <li key={s.id}>
                  <a
                    href={`#${s.id}`}
                    className={`-ml-px block border-l border-transparent py-1 pl-4 text-slate-700 hover:border-indigo-700 hover:text-indigo-800 ${focusRing}`}
                  >
                    {i + 1}. {s.heading}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
          <nav aria-labelledby="related-title">
            <h2 id="related-title" className="mt-8 text-sm font-semibold tracking-wide text-slate-950 uppercase">
              Also read
            </h2>
            <ul className="mt-3 grid gap-1 text-sm">
              {others
                .filter((o) => o.label !== title)
                .map((o) => (
                  <li key={o.to}>
                    <DocLink to={o.to}>{o.label}</DocLink>
                  </li>
                ))}
            </ul>
          </nav>
        </aside>
        <article className="max-w-3xl text-base leading-7 text-slate-800 [&_li]:mt-2 [&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:mt-4 [&_strong]:text-slate-950 [&_table]:mt-4 [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:pl-6">
          {sections.map((s, i) => (
            <section
              key={s.id}
              id={s.id}
              aria-labelledby={`${s.id}-title`}
              className="scroll-mt-24 border-b border-slate-100 pb-10 not-first:pt-10 last:border-0"
            >
              <h2 id={`${s.id}-title`} className="text-2xl font-bold tracking-tight text-slate-950">
                <span className="mr-2 text-indigo-700">{i + 1}.</span>
                {s.heading}
              </h2>
              {s.body}
            </section>
          ))}
        </article>
      </div>
    </main>
  );
}
