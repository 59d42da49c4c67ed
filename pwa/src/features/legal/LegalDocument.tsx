import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { DocumentTitle } from '../../components/DocumentTitle';

export const LEGAL_LAST_UPDATED = '2026-11-28';

/** A numbered section: its anchor, its heading (translated when shown) and its text (each paragraph a message). */
export type LegalSection = { id: string; heading: MessageDescriptor; body: ReactNode };

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
  { to: '/terms-of-service', label: msg`Terms of Service` },
  { to: '/privacy-policy', label: msg`Privacy Policy` },
  { to: '/rules', label: msg`Community Rules` },
];

/**
 * The shared layout of the legal texts: title, last-updated date, a table of contents that stays
 * in view on wide screens, and numbered sections with readable measure and spacing.
 */
export function LegalDocument({ title, summary, sections }: { title: MessageDescriptor; summary: ReactNode; sections: LegalSection[] }) {
  const { i18n, t } = useLingui();
  const { pathname } = useLocation();
  const heading = i18n._(title);
  const updated = i18n.date(new Date(`${LEGAL_LAST_UPDATED}T12:00:00Z`), {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const date = <time dateTime={LEGAL_LAST_UPDATED}>{updated}</time>;
  return (
    <main id="main" className="bg-white">
      <DocumentTitle title={t`${heading} · Parley`} />
      <div className="border-b border-slate-200 bg-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 md:py-16">
          <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">Parley</p>
          <h1 className="mt-2 text-4xl font-bold tracking-tight text-slate-950 sm:text-5xl">{heading}</h1>
          <p className="mt-4 text-sm text-slate-700">
            <Trans>Last updated: {date}</Trans>
          </p>
          <div className="mt-6 max-w-3xl text-lg leading-relaxed text-slate-700">{summary}</div>
        </div>
      </div>
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[16rem_1fr]">
        <aside className="lg:sticky lg:top-24 lg:max-h-[calc(100dvh-7rem)] lg:self-start lg:overflow-y-auto">
          <nav aria-labelledby="toc-title">
            <h2 id="toc-title" className="text-sm font-semibold tracking-wide text-slate-950 uppercase">
              <Trans>Contents</Trans>
            </h2>
            <ol className="mt-3 grid gap-1 border-s border-slate-200 text-sm">
              {sections.map((s, i) => (
                <li key={s.id}>
                  <a
                    href={`#${s.id}`}
                    className={`-ms-px block border-s border-transparent py-1 ps-4 text-slate-700 hover:border-indigo-700 hover:text-indigo-800 ${focusRing}`}
                  >
                    {i18n.number(i + 1)}. {i18n._(s.heading)}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
          <nav aria-labelledby="related-title">
            <h2 id="related-title" className="mt-8 text-sm font-semibold tracking-wide text-slate-950 uppercase">
              <Trans>Also read</Trans>
            </h2>
            <ul className="mt-3 grid gap-1 text-sm">
              {others
                .filter((o) => o.to !== pathname)
                .map((o) => (
                  <li key={o.to}>
                    <DocLink to={o.to}>{i18n._(o.label)}</DocLink>
                  </li>
                ))}
            </ul>
          </nav>
        </aside>
        <article className="max-w-3xl text-base leading-7 text-slate-800 [&_li]:mt-2 [&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:ps-6 [&_p]:mt-4 [&_strong]:text-slate-950 [&_table]:mt-4 [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:ps-6">
          {sections.map((s, i) => (
            <section
              key={s.id}
              id={s.id}
              aria-labelledby={`${s.id}-title`}
              className="scroll-mt-24 border-b border-slate-100 pb-10 not-first:pt-10 last:border-0"
            >
              <h2 id={`${s.id}-title`} className="text-2xl font-bold tracking-tight text-slate-950">
                <span className="me-2 text-indigo-700">{i18n.number(i + 1)}.</span>
                {i18n._(s.heading)}
              </h2>
              {s.body}
            </section>
          ))}
        </article>
      </div>
    </main>
  );
}
