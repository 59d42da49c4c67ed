import { useEffect } from 'react';
import { Link } from '../../components/layout/Link';
import { useAnimate } from 'framer-motion/mini';
import { useReducedMotion } from 'framer-motion';
import { INTRO_FADE_IN_S, INTRO_FADE_IN_STAGGER_S } from '../../lib/uiConstants.ts';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

const bubbles = [
  { side: 'start', name: msg`Mina · Seoul`, text: msg`Hi! It’s 2 a.m. here and I can’t sleep. Where are you?` },
  { side: 'end', name: msg`You`, text: msg`Porto! Just finished breakfast. What keeps you up?` },
  { side: 'start', name: msg`Mina · Seoul`, text: msg`Learning Portuguese, actually. Want to help me practise?` },
] as const;

const points = [msg`Free to join`, msg`Adults only, 18+`, msg`Moderated by real people`];

/** Hero: the headline, then the intro fading in line by line (2 s, 0.2 s stagger). */
export function Hero() {
  const [scope, animate] = useAnimate<HTMLElement>();
  const reduceMotion = useReducedMotion();
  const { i18n } = useLingui();

  useEffect(() => {
    const all = Array.from(scope.current?.querySelectorAll<HTMLElement>('[data-intro]') ?? []);
    // Elements not rendered at this width (the chat bubbles on phones) are shown without animating:
    // an animation on a hidden element cannot run on the compositor and would cost every frame.
    const intro = reduceMotion ? [] : all.filter((el) => el.getClientRects().length > 0);
    for (const el of all) if (!intro.includes(el)) el.style.opacity = '1';
    if (intro.length === 0) return;
    const fades = intro.map((el, i) =>
      animate(
        el,
        { opacity: [0, 1], transform: ['translateY(12px)', 'translateY(0)'] },
        { duration: INTRO_FADE_IN_S, delay: i * INTRO_FADE_IN_STAGGER_S, ease: 'easeOut' },
      ),
    );
    // Keep the end state when the animation finishes, whichever way the browser settles it.
    void Promise.all(fades).then(() => {
      for (const el of intro) el.style.opacity = '1';
    });
    return () => fades.forEach((f) => f.stop());
  }, [animate, reduceMotion, scope]);

  return (
    <section
      id="home"
      ref={scope}
      aria-labelledby="home-title"
      className="relative isolate overflow-hidden bg-[radial-gradient(60rem_40rem_at_85%_-10%,#e0e7ff_0%,transparent_60%),radial-gradient(40rem_30rem_at_-10%_110%,#ffe4e6_0%,transparent_60%)]"
    >
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pt-16 pb-20 sm:px-6 md:pt-24 md:pb-28 lg:grid-cols-[1.15fr_1fr]">
        <div>
          <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">
            <Trans>Text chat · Video chat · Group rooms · Live</Trans>
          </p>
          <h1
            id="home-title"
            className="mt-4 text-4xl leading-[1.05] font-extrabold tracking-tight text-balance text-slate-950 sm:text-6xl"
          >
            <Trans>
              Explore the world. <span className="text-indigo-700">Meet someone new.</span>
            </Trans>
          </h1>
          <p data-intro className="mt-6 max-w-xl text-lg leading-relaxed text-pretty text-slate-700 motion-safe:opacity-0">
            <Trans>
              Parley connects you with real people from everywhere, one conversation at a time. Say hello by text or face to face on video,
              trade stories with someone whose midnight is your morning, and leave with a new friend, a new phrase or simply a better day.
            </Trans>
          </p>
          <div data-intro className="mt-8 flex flex-wrap gap-3 motion-safe:opacity-0">
            {/* Straight into a text chat: sign up, then the search starts (see TextChatPage's `start`).
                In the address, not the router's state: the landing page is pre-rendered, and a tap
                before the app has taken over is a plain link. */}
            <Link
              to={`/createaccount?returnTo=${encodeURIComponent('/textchat?start=1')}`}
              className="rounded-full bg-indigo-700 px-6 py-3 text-base font-semibold text-white shadow-md shadow-indigo-700/20 hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700"
            >
              <Trans>Start a conversation</Trans>
            </Link>
            <Link
              to="/login"
              className="rounded-full bg-white px-6 py-3 text-base font-semibold text-slate-900 ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700"
            >
              <Trans>I have an account</Trans>
            </Link>
          </div>
          <ul data-intro className="mt-8 flex flex-wrap gap-x-6 gap-y-2 text-sm font-medium text-slate-700 motion-safe:opacity-0">
            {points.map((point) => (
              <li key={point.id} className="flex items-center gap-2">
                <svg viewBox="0 0 20 20" className="size-4 text-emerald-600" aria-hidden="true" focusable="false">
                  <path
                    d="M4 10.5l4 4 8-9"
                    stroke="currentColor"
                    strokeWidth="2.2"
                    fill="none"
                    strokeLinecap="round"
                    strokeLinejoin="round"
                  />
                </svg>
                {i18n._(point)}
              </li>
            ))}
          </ul>
        </div>
        <div aria-hidden="true" className="relative mx-auto hidden w-full max-w-md lg:block">
          <div className="absolute -inset-6 -z-10 rounded-[2.5rem] bg-white/60 shadow-2xl ring-1 shadow-indigo-900/10 ring-white" />
          <ol className="grid gap-4 p-2">
            {bubbles.map((b, i) => (
              <li
                key={i}
                data-intro
                className={`max-w-[85%] rounded-3xl px-5 py-3.5 shadow-sm motion-safe:opacity-0 ${
                  b.side === 'end'
                    ? 'justify-self-end rounded-ee-md bg-indigo-700 text-white'
                    : 'rounded-es-md bg-white text-slate-800 ring-1 ring-slate-200'
                }`}
              >
                <span className={`block text-xs font-semibold ${b.side === 'end' ? 'text-indigo-100' : 'text-rose-700'}`}>
                  {i18n._(b.name)}
                </span>
                <span className="mt-1 block text-[0.95rem] leading-snug">{i18n._(b.text)}</span>
              </li>
            ))}
          </ol>
        </div>
      </div>
    </section>
  );
}
