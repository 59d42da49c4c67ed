import { useEffect, useRef, type ReactNode } from 'react';
import { inView } from 'framer-motion/dom';
import { animate } from 'framer-motion/dom/mini';
import { useReducedMotion } from 'framer-motion';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

type Blurb = { title: MessageDescriptor; text: MessageDescriptor; icon: ReactNode; tint: string };

const icon = (d: string) => (
  <svg viewBox="0 0 24 24" className="size-6" aria-hidden="true" focusable="false">
    <path d={d} stroke="currentColor" strokeWidth="1.8" fill="none" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

const blurbs: Blurb[] = [
  {
    title: msg`Great Community`,
    text: msg`Parley is full of people who came to talk: language learners, night owls, travellers planning the next trip and people who simply want to hear a new voice. Add a few interests and you land in conversations that go somewhere.`,
    icon: icon(
      'M16 19v-1a4 4 0 0 0-4-4H7a4 4 0 0 0-4 4v1M9.5 10a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7M21 19v-1a4 4 0 0 0-3-3.87M15.5 3.13a3.5 3.5 0 0 1 0 6.74',
    ),
    tint: 'bg-indigo-50 text-indigo-700',
  },
  {
    title: msg`No Bots. No Trolls`,
    text: msg`Every account belongs to an adult who signed up, not to a script. Every chat has a report button, our moderators review every report, and people who break the rules lose their account. You can block anyone, and you will never be matched with them again.`,
    icon: icon('M12 3l7 3v5c0 4.5-3 8.3-7 10-4-1.7-7-5.5-7-10V6zM9 12l2 2 4-4'),
    tint: 'bg-emerald-50 text-emerald-700',
  },
  {
    title: msg`Development of New Features`,
    text: msg`Parley keeps growing: group rooms, live streams, missions that earn XP and gold, custom emoji and more are built in the open and shipped regularly. Tell us what you want next; the roadmap is shaped by the people who use it.`,
    icon: icon(
      'M12 3v3M12 18v3M3 12h3M18 12h3M5.6 5.6l2.1 2.1M16.3 16.3l2.1 2.1M5.6 18.4l2.1-2.1M16.3 7.7l2.1-2.1M12 15.5a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7',
    ),
    tint: 'bg-amber-50 text-amber-700',
  },
  {
    title: msg`Great Support`,
    text: msg`A real person reads every message you send us. Stuck with your account, worried about someone you met, or curious about a charge? Write to us and we will help you sort it out.`,
    icon: icon('M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12zM8.5 12h.01M12 12h.01M15.5 12h.01'),
    tint: 'bg-rose-50 text-rose-700',
  },
];

/** A blurb rises into place when scrolling brings it into view. */
function FeatureBlurb({ blurb, index }: { blurb: Blurb; index: number }) {
  const card = useRef<HTMLLIElement>(null);
  const reduceMotion = useReducedMotion();
  const { i18n } = useLingui();

  useEffect(() => {
    const el = card.current;
    if (!el) return;
    if (reduceMotion) {
      el.style.opacity = '1';
      return;
    }
    return inView(
      el,
      () => {
        const rise = animate(
          el,
          { opacity: [0, 1], transform: ['translateY(48px)', 'translateY(0)'] },
          { duration: 0.8, ease: [0.22, 1, 0.36, 1] },
        );
        void rise.then(() => {
          el.style.opacity = '1';
        });
      },
      { amount: 0.35 },
    );
  }, [reduceMotion]);

  return (
    <li
      ref={card}
      data-feature={index}
      className="rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 motion-safe:opacity-0 sm:p-8 print:opacity-100"
    >
      <span className={`inline-flex size-12 items-center justify-center rounded-2xl ${blurb.tint}`}>{blurb.icon}</span>
      <h3 className="mt-5 text-xl font-bold tracking-tight text-slate-950">{i18n._(blurb.title)}</h3>
      <p className="mt-3 text-base leading-relaxed text-slate-700">{i18n._(blurb.text)}</p>
    </li>
  );
}

export function FeaturesSection() {
  return (
    <section id="features" aria-labelledby="features-title" className="bg-slate-50 py-20 md:py-28">
      <div className="mx-auto grid max-w-6xl gap-12 px-4 sm:px-6 lg:grid-cols-[1fr_1.4fr]">
        <div className="lg:sticky lg:top-28 lg:self-start">
          <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">
            <Trans>Features</Trans>
          </p>
          <h2 id="features-title" className="mt-3 text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl">
            <Trans>What Makes Us Different</Trans>
          </h2>
          <p className="mt-5 text-lg leading-relaxed text-pretty text-slate-700">
            <Trans>
              Plenty of apps can put two strangers in a room. We care about what happens after hello: who you meet, how safe it feels, and
              whether you want to come back tomorrow.
            </Trans>
          </p>
        </div>
        <ol className="grid gap-6">
          {blurbs.map((b, i) => (
            <FeatureBlurb key={b.title.id} blurb={b} index={i} />
          ))}
        </ol>
      </div>
    </section>
  );
}
