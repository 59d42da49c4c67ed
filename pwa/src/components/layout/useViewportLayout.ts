import { useEffect, useState } from 'react';
import { MOBILE_BREAKPOINT_PX, RESIZE_BLOCK_MS } from '../../lib/uiConstants.ts';

export type ViewportLayout = {
  /**
   * 768 px wide or narrower. Null when there is no window: the landing page pre-rendered
   * at build time carries both layouts and CSS shows the one that fits until the app takes over.
   */
  isMobile: boolean | null;
  /** True for RESIZE_BLOCK_MS after a resize: transitions are held so nothing animates mid-drag. */
  resizing: boolean;
};

const isMobileWidth = () => window.innerWidth <= MOBILE_BREAKPOINT_PX;

/** CSS that hides an element on a phone-sized or on a wider screen, for the pre-rendered page. */
export const hiddenOn = { mobile: 'max-[768px]:hidden', desktop: 'min-[769px]:hidden' } as const;

/**
 * The layout the landing page and top bar follow. A resize is handled at once, then further
 * resize events are blocked for RESIZE_BLOCK_MS; the last one is handled when the block ends.
 */
export function useViewportLayout(): ViewportLayout {
  const [layout, setLayout] = useState<ViewportLayout>(() => ({
    isMobile: typeof window === 'undefined' ? null : isMobileWidth(),
    resizing: false,
  }));

  useEffect(() => {
    let blockedUntil: ReturnType<typeof setTimeout> | undefined;
    let pending = false;
    const endBlock = () => {
      blockedUntil = undefined;
      if (pending) {
        pending = false;
        handle();
      } else {
        setLayout((l) => (l.resizing ? { ...l, resizing: false } : l));
      }
    };
    const handle = () => {
      const isMobile = isMobileWidth();
      setLayout((l) => (l.isMobile === isMobile && l.resizing ? l : { isMobile, resizing: true }));
      blockedUntil = setTimeout(endBlock, RESIZE_BLOCK_MS);
    };
    const onResize = () => {
      if (blockedUntil) pending = true;
      else handle();
    };
    window.addEventListener('resize', onResize, { passive: true });
    return () => {
      window.removeEventListener('resize', onResize);
      clearTimeout(blockedUntil);
    };
  }, []);

  return layout;
}
