import { useEffect, useState } from 'react';
import { MOBILE_BREAKPOINT_PX, RESIZE_BLOCK_MS } from '@parley/contract/constants';

export type ViewportLayout = {
  /** 768 px wide or narrower (spec 9). */
  isMobile: boolean;
  /** True for RESIZE_BLOCK_MS after a resize: transitions are held so nothing animates mid-drag. */
  resizing: boolean;
};

const isMobileWidth = () => window.innerWidth <= MOBILE_BREAKPOINT_PX;

/**
 * The layout the landing page and top bar follow. A resize is handled at once, then further
 * resize events are blocked for RESIZE_BLOCK_MS; the last one is handled when the block ends.
 */
export function useViewportLayout(): ViewportLayout {
  const [layout, setLayout] = useState<ViewportLayout>(() => ({ isMobile: isMobileWidth(), resizing: false }));

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
