import type { VideoPhase } from '../videoChatSlice';
import { Trans, useLingui } from '@lingui/react/macro';

/** Start / Searching / Next / Stop, mute and camera toggles: one row, within thumb reach on phones. */
export function CallControls({
  phase,
  muted,
  cameraOff,
  hasMicrophone,
  hasCamera,
  onStart,
  onNext,
  onStop,
  onToggleMute,
  onToggleCamera,
  onToggleSettings,
  onToggleChat,
  settingsOpen,
  chatOpen,
}: {
  phase: VideoPhase;
  muted: boolean;
  cameraOff: boolean;
  hasMicrophone: boolean;
  hasCamera: boolean;
  onStart: () => void;
  onNext: () => void;
  onStop: () => void;
  onToggleMute: () => void;
  onToggleCamera: () => void;
  onToggleSettings: () => void;
  onToggleChat: () => void;
  settingsOpen: boolean;
  chatOpen: boolean;
}) {
  const { t } = useLingui();
  const round = 'min-h-12 min-w-12 rounded-full px-4 font-semibold text-white disabled:opacity-50';
  // Start and Next: the large buttons, last in the row, where the thumb rests.
  const main = 'min-h-14 min-w-28 rounded-full px-7 text-lg font-bold text-white disabled:opacity-50';
  return (
    <div className="flex flex-wrap items-center justify-center gap-2 p-3" role="toolbar" aria-label={t`Video chat controls`}>
      <button
        type="button"
        className={`${round} ${muted ? 'bg-red-700' : 'bg-slate-700'}`}
        aria-pressed={muted}
        disabled={!hasMicrophone}
        onClick={onToggleMute}
      >
        {muted ? t`Unmute` : t`Mute`}
      </button>
      <button
        type="button"
        className={`${round} ${cameraOff ? 'bg-red-700' : 'bg-slate-700'}`}
        aria-pressed={cameraOff}
        disabled={!hasCamera}
        onClick={onToggleCamera}
      >
        {cameraOff ? t`Camera on` : t`Camera off`}
      </button>
      {phase === 'idle' && (
        <button type="button" className={`${main} order-last bg-emerald-700`} onClick={onStart}>
          <Trans>Start</Trans>
        </button>
      )}
      {phase === 'searching' && (
        <button type="button" className={`${main} order-last bg-slate-600`} disabled aria-live="polite">
          <Trans>Searching…</Trans>
        </button>
      )}
      {(phase === 'connecting' || phase === 'inRoom' || phase === 'ended') && (
        <button type="button" className={`${main} order-last bg-emerald-700`} onClick={onNext}>
          <Trans>Next</Trans>
        </button>
      )}
      {phase !== 'idle' && (
        <button type="button" className={`${round} bg-red-800`} onClick={onStop}>
          <Trans>Stop</Trans>
        </button>
      )}
      <button
        type="button"
        className={`${round} bg-slate-700`}
        aria-expanded={settingsOpen}
        aria-controls="video-settings"
        onClick={onToggleSettings}
      >
        <Trans>Settings</Trans>
      </button>
      <button
        type="button"
        className={`${round} bg-slate-700 md:hidden`}
        aria-expanded={chatOpen}
        aria-controls="video-chat-panel"
        onClick={onToggleChat}
      >
        <Trans>Chat</Trans>
      </button>
    </div>
  );
}
