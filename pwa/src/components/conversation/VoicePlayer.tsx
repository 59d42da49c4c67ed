import { useEffect, useRef, useState } from 'react';
import { focusRing } from '../ui/buttonStyles';
import { clock, useAttachmentFile } from './media';
import { Trans, useLingui } from '@lingui/react/macro';

const SPEEDS = [1, 1.5, 2] as const;

/**
 * A voice message played inline: play/pause, where it is (a slider that also seeks), and its speed
 * (1×, 1.5×, 2×). The file is fetched on the first play. A recording straight from a browser
 * declares no length: the message's own length is used.
 */
export function VoicePlayer({
  url,
  localUrl,
  durationMs,
  label,
  tone = 'light',
}: {
  url?: string | undefined;
  /** Our own copy (a recording before it is sent, or on its way). */
  localUrl?: string | undefined;
  durationMs: number;
  /** What it is for screen readers ("Voice message from Ana"). */
  label: string;
  tone?: 'light' | 'dark';
}) {
  const { t } = useLingui();
  const audio = useRef<HTMLAudioElement>(null);
  const [wanted, setWanted] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [at, setAt] = useState(0);
  const [speed, setSpeed] = useState<(typeof SPEEDS)[number]>(1);
  const loaded = useAttachmentFile(localUrl ? undefined : url, wanted);
  const src = localUrl ?? (loaded === 'failed' ? null : loaded);
  const total = Math.max(durationMs, at);

  // Asked to play before the file was here: it plays once it is.
  useEffect(() => {
    const a = audio.current;
    if (a && src && wanted && a.paused && !playing) void a.play().catch(() => setWanted(false));
    // Only the file arriving starts it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [src]);

  useEffect(() => {
    if (audio.current) audio.current.playbackRate = speed;
  }, [speed, src]);

  function toggle() {
    const a = audio.current;
    if (!src || !a) return setWanted(true);
    if (a.paused) void a.play().catch(() => undefined);
    else a.pause();
  }

  const light = tone === 'light';
  const button = `grid size-11 shrink-0 place-items-center rounded-full ${light ? 'bg-indigo-700 text-white hover:bg-indigo-800' : 'bg-white text-indigo-800 hover:bg-indigo-50'} ${focusRing}`;
  return (
    <div className="mt-1 flex min-w-56 items-center gap-2" role="group" aria-label={label} data-testid="voice-message">
      <button type="button" onClick={toggle} aria-label={playing ? t`Pause` : t`Play`} className={button} data-testid="voice-play">
        {playing ? (
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 fill-current">
            <path d="M7 5h4v14H7zM13 5h4v14h-4z" />
          </svg>
        ) : (
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 fill-current rtl:-scale-x-100">
            <path d="M8 5v14l11-7z" />
          </svg>
        )}
      </button>
      <div className="grid min-w-0 flex-1 gap-0.5">
        <input
          type="range"
          min={0}
          max={Math.max(1, Math.round(total))}
          step={100}
          value={Math.round(at)}
          disabled={!src}
          aria-label={t`Position`}
          aria-valuetext={`${clock(at)} / ${clock(total)}`}
          onChange={(e) => {
            const ms = Number(e.target.value);
            if (audio.current) audio.current.currentTime = ms / 1000;
            setAt(ms);
          }}
          className={`h-2 w-full ${light ? 'accent-indigo-700' : 'accent-white'}`}
        />
        <span className="text-xs tabular-nums" data-testid="voice-time">
          {clock(at)} / {clock(total)}
          {loaded === 'failed' && (
            <>
              {' '}
              <Trans>Could not load this voice message.</Trans>
            </>
          )}
        </span>
      </div>
      <button
        type="button"
        onClick={() => setSpeed(SPEEDS[(SPEEDS.indexOf(speed) + 1) % SPEEDS.length]!)}
        aria-label={t`Playback speed ${speed}×`}
        className={`h-11 min-w-12 shrink-0 rounded-lg px-2 text-sm font-semibold ${light ? 'text-indigo-800 hover:bg-indigo-50' : 'text-white hover:bg-white/10'} ${focusRing}`}
        data-testid="voice-speed"
      >
        {speed}×
      </button>
      {src && (
        <audio
          ref={audio}
          src={src}
          preload="auto"
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={() => {
            setPlaying(false);
            setWanted(false);
            setAt(0);
          }}
          onTimeUpdate={(e) => setAt(e.currentTarget.currentTime * 1000)}
        />
      )}
    </div>
  );
}
