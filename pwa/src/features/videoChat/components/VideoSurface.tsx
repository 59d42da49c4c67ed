import { useEffect, useRef, type RefObject } from 'react';

/**
 * A <video> showing a MediaStream. `onFirstFrame` fires once per stream when a frame is actually
 * painted (requestVideoFrameCallback), not merely when the stream arrives.
 */
export function VideoSurface({
  stream,
  muted,
  mirrored,
  label,
  className = '',
  testId,
  onPlaying,
  onFirstFrame,
  videoRef,
}: {
  stream: MediaStream | null;
  muted: boolean;
  mirrored?: boolean;
  label: string;
  className?: string;
  testId?: string;
  onPlaying?: (playing: boolean) => void;
  onFirstFrame?: () => void;
  /** Given the element, for whoever looks at its frames (the nudity guard). */
  videoRef?: RefObject<HTMLVideoElement | null>;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  const firstFrame = useRef(onFirstFrame);
  const playing = useRef(onPlaying);
  useEffect(() => {
    firstFrame.current = onFirstFrame;
    playing.current = onPlaying;
  });

  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (videoRef) videoRef.current = video;
    video.srcObject = stream;
    if (!stream) {
      playing.current?.(false);
      return;
    }
    let handle: number | null = null;
    if ('requestVideoFrameCallback' in video) {
      handle = video.requestVideoFrameCallback(() => {
        handle = null;
        firstFrame.current?.();
      });
    }
    const onPlay = () => playing.current?.(true);
    video.addEventListener('playing', onPlay);
    void video.play().catch(() => undefined);
    return () => {
      if (handle !== null) video.cancelVideoFrameCallback(handle);
      video.removeEventListener('playing', onPlay);
      video.srcObject = null;
    };
  }, [stream, videoRef]);

  return (
    <video
      ref={ref}
      data-testid={testId}
      aria-label={label}
      autoPlay
      playsInline
      muted={muted}
      className={`${className} ${mirrored ? '-scale-x-100' : ''} bg-black object-cover`}
    />
  );
}
