import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

const STORAGE_KEY = 'parley.scrollPositions';

function readSaved(): Record<string, number> {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * Scroll positions the way a browser keeps them for documents: a new page opens at its top (or at
 * the element its #hash names), going back or forward returns to where that entry was left, and a
 * reload keeps its place (positions are kept in sessionStorage, keyed by history entry).
 */
export function useScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef<Record<string, number> | null>(null);
  const currentKey = useRef(location.key);

  useEffect(() => {
    const previous = window.history.scrollRestoration;
    window.history.scrollRestoration = 'manual';
    // Scroll events arrive after a navigation has committed, so they are booked on the new entry.
    const onScroll = () => {
      (positions.current ??= readSaved())[currentKey.current] = window.scrollY;
    };
    const onPageHide = () => {
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions.current ?? readSaved()));
      } catch {
        // Storage refused: a reload then opens at the top.
      }
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.history.scrollRestoration = previous;
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', onPageHide);
    };
  }, []);

  useLayoutEffect(() => {
    currentKey.current = location.key;
    const saved = navigationType === 'POP' ? (positions.current ??= readSaved())[location.key] : undefined;
    const hash = location.hash ? decodeURIComponent(location.hash.slice(1)) : '';
    // The page may still be arriving (a lazy chunk, a render still queued): until it is tall enough
    // or its #hash element exists, try again on the next frames, for a second at most.
    const place = (): boolean => {
      if (saved !== undefined) {
        if (document.documentElement.scrollHeight - window.innerHeight < saved) return false;
        window.scrollTo(0, saved);
        return true;
      }
      const target = hash ? document.getElementById(hash) : null;
      if (target) target.scrollIntoView();
      return !hash || !!target;
    };
    if (saved === undefined) window.scrollTo(0, 0);
    let frame = 0;
    let tries = 0;
    const attempt = () => {
      if (place()) return;
      if (++tries < 60) frame = requestAnimationFrame(attempt);
      else if (saved !== undefined) window.scrollTo(0, saved); // as far as the page goes
    };
    attempt();
    return () => cancelAnimationFrame(frame);
  }, [location.key, location.hash, navigationType]);
}
