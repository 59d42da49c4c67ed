import { useMemo, type MouseEvent } from 'react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../lib/i18n/i18n';
import { SkipLink } from '../../components/SkipLink';
import { LazyToaster } from '../../components/LazyToaster';
import TopBar from '../../components/layout/TopBar';
import { NavigationProvider, type LinkProps, type Navigation } from '../../components/layout/navigation';
import LandingPage from './LandingPage';

export type IslandProps = {
  /** Opens `to` in the app: loads it, then hands the page over to it. */
  enter: (to: string, state?: unknown) => void;
  /** Starts loading the app early, when a link is about to be followed (hovered, focused, touched). */
  preload: () => void;
};

/** A click the browser should handle itself: another tab or window, a download. */
const opensElsewhere = (e: MouseEvent<HTMLAnchorElement>) =>
  e.button !== 0 ||
  e.metaKey ||
  e.altKey ||
  e.ctrlKey ||
  e.shiftKey ||
  (e.currentTarget.target !== '' && e.currentTarget.target !== '_self');

/**
 * A visitor's landing page `/` without the app: the same page the app renders there (skip link,
 * public top bar, LandingPage), on React and the interface language only. Its links load the app
 * (router, store, realtime, schemas) and hand over to it at their page. Pre-rendered at build time
 * for a first paint without script (prerender.tsx); the browser renders it again over that markup.
 */
export function LandingIsland({ enter, preload }: IslandProps) {
  const navigation = useMemo<Navigation>(() => {
    function IslandLink({ to, state, onClick, onPointerEnter, onFocus, onTouchStart, ...rest }: LinkProps) {
      return (
        <a
          {...rest}
          href={to}
          onPointerEnter={(e) => {
            onPointerEnter?.(e);
            preload();
          }}
          onFocus={(e) => {
            onFocus?.(e);
            preload();
          }}
          onTouchStart={(e) => {
            onTouchStart?.(e);
            preload();
          }}
          onClick={(e) => {
            onClick?.(e);
            if (e.defaultPrevented || opensElsewhere(e)) return;
            e.preventDefault();
            enter(to, state);
          }}
        />
      );
    }
    const historyState = typeof window === 'undefined' ? null : (window.history.state as { usr?: unknown } | null);
    return {
      location: { pathname: '/', state: historyState?.usr ?? null, key: 'default' },
      navigate: (to, options) => enter(to, options?.state),
      Link: IslandLink,
    };
  }, [enter, preload]);

  return (
    <I18nProvider i18n={i18n}>
      <NavigationProvider value={navigation}>
        <SkipLink />
        <TopBar audience="visitor" />
        <LandingPage />
        <LazyToaster />
      </NavigationProvider>
    </I18nProvider>
  );
}
