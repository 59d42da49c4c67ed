import type { CSSProperties } from 'react';
import { DEFAULT_LAYOUT_ANIMATION_S } from '../../lib/uiConstants.ts';
import { hiddenOn } from '../../components/layout/useViewportLayout';
import './landing.css';
import { useLingui } from '@lingui/react/macro';

/**
 * The mockup grows to full size as it scrolls into view, from a smaller start on desktop than on
 * a phone, where there is less room to grow (the mobile scale differs).
 */
const MOCKUP_SCALE = { desktop: 0.86, mobile: 0.94 } as const;

const PREVIEW_IMAGES = {
  desktop: { src: '/images/parley-preview-desktop.webp', width: 1280, height: 560 },
  mobile: { src: '/images/parley-preview-mobile.webp', width: 576, height: 1247 },
} as const;

/**
 * A large preview of the real app, framed as a browser window (desktop) or a phone. Pre-rendered
 * (layout not known yet) both are in the page and CSS shows the one that fits.
 */
export function AppPreview({ isMobile, resizing }: { isMobile: boolean | null; resizing: boolean }) {
  if (isMobile === null) {
    return (
      <>
        <div className={hiddenOn.mobile}>
          <Mockup layout="desktop" resizing={resizing} />
        </div>
        <div className={hiddenOn.desktop}>
          <Mockup layout="mobile" resizing={resizing} />
        </div>
      </>
    );
  }
  return <Mockup layout={isMobile ? 'mobile' : 'desktop'} resizing={resizing} />;
}

function Mockup({ layout, resizing }: { layout: 'mobile' | 'desktop'; resizing: boolean }) {
  const from = MOCKUP_SCALE[layout];
  const image = PREVIEW_IMAGES[layout];
  const { t } = useLingui();
  const shot = (
    <img
      src={image.src}
      width={image.width}
      height={image.height}
      alt={t`The Parley dashboard: cards for text chat, video chat, group chat and live streams.`}
      loading="lazy"
      decoding="async"
      className="block h-auto w-full"
    />
  );
  return (
    <div
      data-testid="app-preview"
      data-layout={layout}
      data-scale-from={from}
      // The scale itself is a scroll-driven CSS animation (landing.css); this sets where it starts.
      style={{ '--scale-from': from, transitionDuration: resizing ? '0s' : `${DEFAULT_LAYOUT_ANIMATION_S}s` } as CSSProperties}
      className="landing-mockup mx-auto origin-top transition-[max-width] ease-out motion-reduce:transition-none data-[layout=desktop]:max-w-5xl data-[layout=mobile]:max-w-[18rem]"
    >
      {layout === 'mobile' ? (
        <div className="rounded-[2.6rem] bg-slate-900 p-2.5 shadow-2xl ring-1 shadow-indigo-950/30 ring-slate-700">
          <div className="overflow-hidden rounded-[2rem] bg-white">{shot}</div>
        </div>
      ) : (
        <figure className="overflow-hidden rounded-2xl bg-white shadow-2xl ring-1 shadow-indigo-950/20 ring-slate-200">
          <div className="flex items-center gap-3 border-b border-slate-200 bg-slate-50 px-4 py-2.5" aria-hidden="true">
            <span className="flex gap-1.5">
              <span className="size-3 rounded-full bg-rose-400" />
              <span className="size-3 rounded-full bg-amber-400" />
              <span className="size-3 rounded-full bg-emerald-400" />
            </span>
            <span className="mx-auto w-full max-w-sm truncate rounded-md bg-white px-3 py-1 text-center text-xs text-slate-600 ring-1 ring-slate-200">
              parley.app/dashboard
            </span>
          </div>
          {shot}
        </figure>
      )}
    </div>
  );
}
