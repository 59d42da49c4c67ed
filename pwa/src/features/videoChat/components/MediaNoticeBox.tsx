import type { MediaNotice } from '../../../lib/media/devices';
import { Trans } from '@lingui/react/macro';

/** A camera or microphone problem in words, with what to do and a retry. */
export function MediaNoticeBox({ notices, onRetry }: { notices: MediaNotice[]; onRetry: () => void }) {
  if (notices.length === 0) return null;
  return (
    <div role="alert" className="m-3 rounded-xl border border-amber-400 bg-amber-950 p-3 text-amber-50">
      {notices.map((n) => (
        <div key={n.title} className="mb-2">
          <p className="font-semibold">{n.title}</p>
          <p className="text-sm">{n.description}</p>
        </div>
      ))}
      <button type="button" onClick={onRetry} className="min-h-11 rounded-lg bg-amber-300 px-4 font-semibold text-amber-950">
        <Trans>Try again</Trans>
      </button>
    </div>
  );
}
