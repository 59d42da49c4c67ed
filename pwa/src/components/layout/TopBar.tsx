import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useAnimate } from 'framer-motion/mini';
import { useReducedMotion } from 'framer-motion';
import { DEFAULT_LAYOUT_ANIMATION_S } from '../../lib/uiConstants.ts';
import { LogoMark } from './Logo';
import { Link } from './Link';
import { useNavigation } from './navigation';
import {
  LANDING_SECTIONS,
  UNHIGHLIGHTED_PATHS,
  prefersReducedMotion,
  scrollToSection,
  type LandingNavigationState,
  type SectionId,
} from './sections';
import { useActiveSection } from './useActiveSection';
import { hiddenOn, useViewportLayout } from './useViewportLayout';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';

const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700';

/**
 * Who the public top bar is for: a visitor (Login, Sign Up), a signed-in person (the way into the
 * app instead), or not known yet while the session is checked (neither, so nothing flips).
 */
export type TopBarAudience = 'visitor' | 'member' | 'pending';

/**
 * The sticky top bar of the public pages: logo, the landing sections, Login and Sign Up.
 * On 768 px or narrower it collapses into a menu. Pre-rendered (no window yet), it carries both
 * and CSS shows the one that fits.
 */
export default function TopBar({ audience = 'visitor' }: { audience?: TopBarAudience }) {
  const {
    location: { pathname },
    navigate,
  } = useNavigation();
  const { isMobile, resizing } = useViewportLayout();
  const onLanding = pathname === '/';
  const active = useActiveSection(onLanding && !UNHIGHLIGHTED_PATHS.includes(pathname));
  const [menuOpen, setMenuOpen] = useState(false);
  const open = menuOpen && isMobile === true;

  const goToSection = useCallback(
    (id: SectionId) => {
      setMenuOpen(false);
      if (onLanding) scrollToSection(id);
      // Elsewhere the landing page is opened first; it scrolls once its sections exist.
      else navigate('/', { state: { section: id } satisfies LandingNavigationState });
    },
    [navigate, onLanding],
  );

  return (
    <header
      data-resizing={resizing || undefined}
      className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75"
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
        <Link
          to="/"
          onClick={(e) => {
            if (!onLanding) return;
            e.preventDefault();
            goToSection('home');
          }}
          className={`flex shrink-0 items-center gap-2 rounded-lg text-xl font-bold tracking-tight text-slate-900 ${focusRing}`}
        >
          <LogoMark />
          <span>Parley</span>
        </Link>
        {isMobile !== true && (
          <div className={isMobile === null ? `contents ${hiddenOn.mobile}` : 'contents'}>
            <SectionNav active={active} onSection={goToSection} resizing={resizing} />
            <AccountLinks audience={audience} className="ms-auto flex items-center gap-2" />
          </div>
        )}
        {isMobile !== false && (
          <div className={isMobile === null ? `contents ${hiddenOn.desktop}` : 'contents'}>
            <MobileMenu audience={audience} open={open} setOpen={setMenuOpen} active={active} onSection={goToSection} resizing={resizing} />
          </div>
        )}
      </div>
    </header>
  );
}

type NavProps = { active: SectionId | null; onSection: (id: SectionId) => void; resizing: boolean };

/** Desktop section buttons; a pill glides to the active one (the layout animation, 0.45 s). */
function SectionNav({ active, onSection, resizing }: NavProps) {
  const { t } = useLingui();
  const [scope, animate] = useAnimate<HTMLUListElement>();
  const placed = useRef(false);

  useLayoutEffect(() => {
    const list = scope.current;
    const pill = list?.querySelector<HTMLElement>('[data-pill]');
    const target = active ? list?.querySelector<HTMLElement>(`[data-section="${active}"]`) : null;
    if (!list || !pill) return;
    if (!target) {
      pill.style.opacity = '0';
      placed.current = false;
      return;
    }
    // Measured against the list the pill moves in: each button sits in its own positioned <li>,
    // so the button's own offsetLeft is 0 (the pill stayed on Home, only its width changing).
    const to = { x: offsetWithin(target, list), width: target.offsetWidth };
    // The first placement and any resize jump straight there; later moves glide.
    const instant = !placed.current || resizing || prefersReducedMotion();
    placed.current = true;
    pill.style.opacity = '1';
    if (instant) {
      pill.style.transform = `translateX(${to.x}px)`;
      pill.style.width = `${to.width}px`;
      return;
    }
    const glide = animate(
      pill,
      { transform: `translateX(${to.x}px)`, width: `${to.width}px` },
      { duration: DEFAULT_LAYOUT_ANIMATION_S, ease: [0.22, 1, 0.36, 1] },
    );
    return () => glide.stop();
  }, [active, animate, resizing, scope]);

  return (
    <nav aria-label={t`Landing page sections`} className="mx-auto">
      <form action="/" method="get">
        <ul ref={scope} className="relative flex items-center gap-1">
          <span
            data-pill
            aria-hidden="true"
            className="absolute top-0 left-0 h-full rounded-full bg-indigo-50 opacity-0 ring-1 ring-indigo-100"
          />
          {LANDING_SECTIONS.map(({ id, label }) => (
            <li key={id} className="relative">
              <SectionButton
                id={id}
                label={label}
                active={active === id}
                onSection={onSection}
                className={`rounded-full px-3.5 py-2 text-sm font-medium transition-colors ${focusRing} ${
                  active === id ? 'text-indigo-800' : 'text-slate-700 hover:text-slate-950'
                }`}
              />
            </li>
          ))}
        </ul>
      </form>
    </nav>
  );
}

type SectionButtonProps = {
  id: SectionId;
  label: MessageDescriptor;
  active: boolean;
  onSection: (id: SectionId) => void;
  className: string;
};

/**
 * A landing section's button, in the bar and in the menu. It sits in a GET form, so pressed on
 * pre-rendered markup before any script ran it still opens the section (/?section=…#…, where the
 * browser scrolls by itself); once the app runs, the click is handled here instead.
 */
function SectionButton({ id, label, active, onSection, className }: SectionButtonProps) {
  const { i18n } = useLingui();
  return (
    <button
      type="submit"
      name="section"
      value={id}
      formAction={`/#${id}`}
      data-section={id}
      aria-current={active ? 'true' : undefined}
      onClick={(e) => {
        e.preventDefault();
        onSection(id);
      }}
      className={className}
    >
      {i18n._(label)}
    </button>
  );
}

/** The element's left edge in `container`'s coordinates, through any positioned elements between. */
function offsetWithin(el: HTMLElement, container: HTMLElement): number {
  let x = 0;
  for (let node: HTMLElement | null = el; node && node !== container; node = node.offsetParent as HTMLElement | null) x += node.offsetLeft;
  return x;
}

function AccountLinks({ audience, className, onNavigate }: { audience: TopBarAudience; className: string; onNavigate?: () => void }) {
  // In the menu panel both are full-width buttons; the outline keeps Login visibly a control.
  const outline = onNavigate ? 'text-center ring-1 ring-slate-300' : '';
  if (audience === 'member')
    return (
      <div className={className}>
        <Link
          to="/dashboard"
          onClick={onNavigate}
          className={`col-span-2 rounded-full bg-indigo-700 px-4 py-2 text-center text-sm font-semibold text-white shadow-sm hover:bg-indigo-800 ${focusRing}`}
        >
          <Trans>Open Parley</Trans>
        </Link>
      </div>
    );
  // Not known yet: the visitor's links keep their place unseen, so the bar does not move when they appear.
  return (
    <div className={audience === 'pending' ? `${className} invisible` : className}>
      <Link
        to="/login"
        onClick={onNavigate}
        className={`rounded-full px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 ${outline} ${focusRing}`}
      >
        <Trans>Login</Trans>
      </Link>
      <Link
        to="/createaccount"
        onClick={onNavigate}
        className={`rounded-full bg-indigo-700 px-4 py-2 text-center text-sm font-semibold text-white shadow-sm hover:bg-indigo-800 ${focusRing}`}
      >
        <Trans>Sign Up</Trans>
      </Link>
    </div>
  );
}

type MobileMenuProps = NavProps & { audience: TopBarAudience; open: boolean; setOpen: (open: boolean) => void };

/** The panel slides open; it turns visible at once on opening and only after sliding shut on closing. */
function panelTransition(seconds: number, open: boolean): string {
  const slide = ['grid-template-rows', 'opacity', 'box-shadow', 'border-color'].map((p) => `${p} ${seconds}s ease-out`);
  return [...slide, `visibility 0s linear ${open ? 0 : seconds}s`].join(', ');
}

/** The collapsed bar: a disclosure button and a panel; Esc or a click outside closes it. */
function MobileMenu({ audience, open, setOpen, active, onSection, resizing }: MobileMenuProps) {
  const { t } = useLingui();
  const panelId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const reduceMotion = useReducedMotion();

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>('button, a')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!panel.current?.contains(target) && !toggle.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, setOpen]);

  return (
    <>
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className={`ms-auto inline-flex size-11 items-center justify-center rounded-full text-slate-800 hover:bg-slate-100 ${focusRing}`}
      >
        <span className="sr-only">
          <Trans>Menu</Trans>
        </span>
        <svg viewBox="0 0 24 24" className="size-6" aria-hidden="true" focusable="false">
          <path
            d={open ? 'M6 6l12 12M18 6L6 18' : 'M4 7h16M4 12h16M4 17h16'}
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            fill="none"
          />
        </svg>
      </button>
      <div
        ref={panel}
        id={panelId}
        inert={!open}
        data-open={open || undefined}
        style={{ transition: panelTransition(resizing || reduceMotion ? 0 : DEFAULT_LAYOUT_ANIMATION_S, open) }}
        className="invisible absolute inset-x-0 top-16 grid grid-rows-[0fr] border-b border-transparent bg-white opacity-0 shadow-none data-[open]:visible data-[open]:grid-rows-[1fr] data-[open]:border-slate-200 data-[open]:opacity-100 data-[open]:shadow-lg"
      >
        <div className="overflow-hidden">
          <nav aria-label={t`Landing page sections`} className="px-4 pt-3">
            <form action="/" method="get">
              <ul className="grid gap-1">
                {LANDING_SECTIONS.map(({ id, label }) => (
                  <li key={id}>
                    <SectionButton
                      id={id}
                      label={label}
                      active={active === id}
                      onSection={onSection}
                      className={`w-full rounded-xl px-4 py-3 text-start text-base font-medium ${focusRing} ${
                        active === id ? 'bg-indigo-50 text-indigo-800' : 'text-slate-800 hover:bg-slate-100'
                      }`}
                    />
                  </li>
                ))}
              </ul>
            </form>
          </nav>
          <AccountLinks audience={audience} className="grid grid-cols-2 gap-2 px-4 pt-2 pb-4" onNavigate={() => setOpen(false)} />
        </div>
      </div>
    </>
  );
}
