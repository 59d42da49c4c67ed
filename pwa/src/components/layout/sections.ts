import { FEATURES_SCROLL_OFFSET_PX } from '../../lib/uiConstants.ts';
import { msg } from '@lingui/core/macro';

/** The landing page's sections, in page order: their element ids and top-bar labels. */
export const LANDING_SECTIONS = [
  { id: 'home', label: msg`Home` },
  { id: 'mission', label: msg`Our Mission` },
  { id: 'features', label: msg`Features` },
  { id: 'contact', label: msg`Contact` },
] as const;

export type SectionId = (typeof LANDING_SECTIONS)[number]['id'];

export function isSectionId(value: unknown): value is SectionId {
  return LANDING_SECTIONS.some((s) => s.id === value);
}

/** Pages where the top bar shows no active section (they are not the landing page). */
export const UNHIGHLIGHTED_PATHS = ['/login', '/createaccount'];

/** Router state a section button leaves when it first has to navigate to the landing page. */
export type LandingNavigationState = { section: SectionId };

export function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Where the window must scroll so a section sits at the top; Features stops short. */
export function sectionScrollTop(id: SectionId): number | null {
  const section = document.getElementById(id);
  if (!section) return null;
  if (id === 'home') return 0;
  const top = section.getBoundingClientRect().top + window.scrollY;
  return Math.max(0, Math.round(top - (id === 'features' ? FEATURES_SCROLL_OFFSET_PX : 0)));
}

/** Scrolls smoothly to a section (instantly for people who asked for reduced motion). */
export function scrollToSection(id: SectionId): boolean {
  const top = sectionScrollTop(id);
  if (top === null) return false;
  window.scrollTo({ top, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  return true;
}
