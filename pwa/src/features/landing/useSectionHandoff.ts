import { useEffect } from 'react';
import { isSectionId, scrollToSection, type LandingNavigationState, type SectionId } from '../../components/layout/sections';
import { useNavigation } from '../../components/layout/navigation';

/** Locations whose section request was already carried out (a re-render must not scroll again). */
const handled = new Set<string>();

/**
 * A section button pressed on another page navigates here with the section in router state;
 * once the sections are laid out, scroll to it.
 */
export function useSectionHandoff() {
  const { location } = useNavigation();
  const section = (location.state as Partial<LandingNavigationState> | null)?.section;

  useEffect(() => {
    // A section button pressed before any script ran submitted its form: /?section=features#features.
    const fromForm = new URLSearchParams(window.location.search).get('section');
    if (isSectionId(fromForm)) {
      window.history.replaceState(window.history.state, '', '/');
      return scrollOnceLaidOut(fromForm);
    }
    if (!isSectionId(section) || handled.has(location.key)) return;
    handled.add(location.key);
    return scrollOnceLaidOut(section);
  }, [location.key, section]);
}

/** Two frames: the first lays the page out, the second sees final positions. */
function scrollOnceLaidOut(section: SectionId): () => void {
  let frame = requestAnimationFrame(() => {
    frame = requestAnimationFrame(() => scrollToSection(section));
  });
  return () => cancelAnimationFrame(frame);
}
