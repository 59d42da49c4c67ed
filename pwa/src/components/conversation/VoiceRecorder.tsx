import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { VOICE_MAX_MS } from '@parley/contract/attachments';
import { focusRing } from '../ui/buttonStyles';
import { toast } from '../../lib/toast';
import { clock } from './media';
import { VoicePlayer } from './VoicePlayer';
import { Trans, useLingui } from '@lingui/react/macro';

/** Held at least this long, the microphone button records while held; a shorter press starts a recording that Stop ends. */
const HOLD_MS = 350;
const BARS = 32;
/** Opus in WebM (Chromium, Firefox) or in Ogg: what the server keeps. */
const TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus'];

type Recording = {
  recorder: MediaRecorder;
  stream: MediaStream;
  audio: AudioContext;
  startedAt: number;
  chunks: Blob[];
  cancelled: boolean;
};

/**
 * Recording a voice message: hold the microphone button to record and let go to stop, or press it
 * once (mouse, touch or keyboard) and press Stop. Elapsed time and a simple waveform show while it
 * records; then it can be listened to, sent or discarded. Two minutes at most (the server's limit).
 */
export function VoiceRecorder({
  disabled,
  onSend,
  buttonClass,
}: {
  disabled: boolean;
  onSend(blob: Blob, durationMs: number): void;
  buttonClass: string;
}) {
  const { t } = useLingui();
  const [phase, setPhase] = useState<'idle' | 'starting' | 'recording' | 'review'>('idle');
  const [elapsed, setElapsed] = useState(0);
  const [levels, setLevels] = useState<number[]>([]);
  const [take, setTake] = useState<{ blob: Blob; url: string; durationMs: number } | null>(null);
  const rec = useRef<Recording | null>(null);
  const pressedAt = useRef(0);
  const stopAfterStart = useRef(false);

  useEffect(() => () => release(true), []);

  function release(cancel: boolean) {
    const r = rec.current;
    if (!r) return;
    r.cancelled ||= cancel;
    if (r.recorder.state !== 'inactive') r.recorder.stop();
    for (const track of r.stream.getTracks()) track.stop();
    void r.audio.close().catch(() => undefined);
    rec.current = null;
  }

  async function start() {
    if (phase !== 'idle' || disabled) return;
    const mimeType = typeof MediaRecorder === 'undefined' ? undefined : TYPES.find((type) => MediaRecorder.isTypeSupported(type));
    if (!mimeType || !navigator.mediaDevices?.getUserMedia)
      return void toast({ title: t`Voice messages cannot be recorded in this browser.`, variant: 'error' });
    setPhase('starting');
    stopAfterStart.current = false;
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      setPhase('idle');
      return void toast({
        title: t`The microphone is not available`,
        description: t`Allow Parley to use the microphone to record a voice message.`,
        variant: 'error',
      });
    }
    const recorder = new MediaRecorder(stream, { mimeType, audioBitsPerSecond: 32_000 });
    const audio = new AudioContext();
    const analyser = audio.createAnalyser();
    analyser.fftSize = 256;
    audio.createMediaStreamSource(stream).connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    const r: Recording = { recorder, stream, audio, startedAt: performance.now(), chunks: [], cancelled: false };
    rec.current = r;
    recorder.ondataavailable = (e) => e.data.size > 0 && r.chunks.push(e.data);
    recorder.onstop = () => {
      clearInterval(tick);
      const durationMs = Math.min(VOICE_MAX_MS, performance.now() - r.startedAt);
      if (r.cancelled || r.chunks.length === 0) return setPhase('idle');
      const blob = new Blob(r.chunks, { type: mimeType.split(';')[0] });
      setTake({ blob, url: URL.createObjectURL(blob), durationMs });
      setPhase('review');
    };
    const tick = setInterval(() => {
      const ms = performance.now() - r.startedAt;
      setElapsed(ms);
      analyser.getByteTimeDomainData(samples);
      let peak = 0;
      for (const v of samples) peak = Math.max(peak, Math.abs(v - 128));
      setLevels((l) => [...l.slice(-(BARS - 1)), Math.min(1, peak / 64)]);
      if (ms >= VOICE_MAX_MS) release(false);
    }, 100);
    recorder.start(250);
    setElapsed(0);
    setLevels([]);
    setPhase('recording');
    if (stopAfterStart.current) release(false);
  }

  function onPointerDown(e: PointerEvent<HTMLButtonElement>) {
    if (e.button !== 0) return;
    pressedAt.current = performance.now();
    void start();
  }
  function onPointerUp() {
    // Held: letting go stops it. A tap leaves it recording until Stop.
    if (pressedAt.current && performance.now() - pressedAt.current >= HOLD_MS) {
      if (rec.current) release(false);
      else stopAfterStart.current = true;
    }
    pressedAt.current = 0;
  }

  function discard() {
    if (take) URL.revokeObjectURL(take.url);
    setTake(null);
    setPhase('idle');
  }
  function send() {
    if (!take) return;
    onSend(take.blob, take.durationMs);
    URL.revokeObjectURL(take.url);
    setTake(null);
    setPhase('idle');
  }

  const small = `h-11 rounded-lg px-3 text-sm font-semibold ${focusRing}`;
  return (
    <>
      <button
        type="button"
        disabled={disabled || phase !== 'idle'}
        aria-label={t`Record a voice message`}
        title={t`Hold to record, or press once to start`}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onContextMenu={(e) => e.preventDefault()}
        // Keyboard (Enter, Space) presses arrive as a click with no pointer before it.
        onClick={(e) => e.detail === 0 && void start()}
        className={`grid size-11 shrink-0 touch-none place-items-center rounded-lg select-none disabled:opacity-50 ${buttonClass}`}
        data-testid="voice-record"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6 fill-none stroke-current stroke-2" strokeLinecap="round">
          <rect x="9" y="3" width="6" height="11" rx="3" />
          <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
        </svg>
      </button>
      {(phase === 'recording' || phase === 'review') && (
        <div
          role="group"
          aria-label={t`Voice message`}
          className="absolute inset-x-2 bottom-full z-10 mb-2 rounded-xl border border-slate-300 bg-white p-3 text-slate-900 shadow-lg"
        >
          {phase === 'recording' ? (
            <div className="flex flex-wrap items-center gap-3">
              <span className="flex items-center gap-2 font-semibold tabular-nums" role="timer" aria-live="off">
                <span className="size-3 animate-pulse rounded-full bg-red-600" aria-hidden="true" />
                <span className="sr-only">
                  <Trans>Recording</Trans>
                </span>
                {clock(elapsed)} / {clock(VOICE_MAX_MS)}
              </span>
              <span className="flex h-8 min-w-24 flex-1 items-center gap-0.5" aria-hidden="true" data-testid="voice-waveform">
                {levels.map((level, i) => (
                  <span key={i} className="w-1 rounded-full bg-indigo-600" style={{ height: `${Math.max(8, level * 100)}%` }} />
                ))}
              </span>
              <button
                type="button"
                onClick={() => release(false)}
                className={`${small} bg-indigo-700 text-white hover:bg-indigo-800`}
                data-testid="voice-stop"
              >
                <Trans>Stop</Trans>
              </button>
              <button type="button" onClick={() => release(true)} className={`${small} text-slate-800 hover:bg-slate-100`}>
                <Trans>Cancel</Trans>
              </button>
            </div>
          ) : (
            take && (
              <div className="grid gap-2">
                <VoicePlayer localUrl={take.url} durationMs={take.durationMs} label={t`Your recording`} />
                <div className="flex justify-end gap-2">
                  <button type="button" onClick={discard} className={`${small} text-slate-800 hover:bg-slate-100`}>
                    <Trans>Discard</Trans>
                  </button>
                  <button
                    type="button"
                    onClick={send}
                    className={`${small} bg-indigo-700 text-white hover:bg-indigo-800`}
                    data-testid="voice-send"
                  >
                    <Trans>Send voice message</Trans>
                  </button>
                </div>
              </div>
            )
          )}
        </div>
      )}
    </>
  );
}
