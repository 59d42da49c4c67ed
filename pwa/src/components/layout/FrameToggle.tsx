import { focusRing } from '../ui/buttonStyles';
import { useFrame } from './frameContext';
import { Trans } from '@lingui/react/macro';

/**
 * On a page that opened full screen: one tap brings back the app's navigation (the tabs or the
 * sidebar, the bell, the account menu). Nothing when the frame shows or there is none.
 */
export function FrameToggle({ tone = 'light' }: { tone?: 'light' | 'dark' }) {
  const frame = useFrame();
  if (!frame?.collapsed) return null;
  const look = tone === 'dark' ? 'bg-slate-900/85 text-white hover:bg-slate-800' : 'text-fg hover:bg-surface-hover';
  return (
    <button
      type="button"
      onClick={frame.expand}
      className={`pointer-events-auto inline-flex size-11 shrink-0 items-center justify-center rounded-full ${look} ${focusRing}`}
    >
      <span className="sr-only">
        <Trans>Show navigation</Trans>
      </span>
      <svg viewBox="0 0 24 24" className="size-6" aria-hidden="true" focusable="false">
        <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" fill="none" />
      </svg>
    </button>
  );
}
