import { useEffect, useState, type RefObject } from 'react';

/** iOS Safari puts only a video in full screen, with its own controls (no Fullscreen API on elements). */
type IosVideo = HTMLVideoElement & { webkitEnterFullscreen?: () => void; webkitDisplayingFullscreen?: boolean };

/**
 * The stream's player in full screen: the Fullscreen API on its container (the video with its
 * buttons), or on iPhones the video's own full screen. `on` follows the browser, so Esc, the
 * back gesture or the system's button leave it as well.
 */
export function useFullscreen(stage: RefObject<HTMLElement | null>, video: RefObject<HTMLVideoElement | null>) {
  const [on, setOn] = useState(false);
  useEffect(() => {
    const changed = () => setOn(document.fullscreenElement !== null && document.fullscreenElement === stage.current);
    document.addEventListener('fullscreenchange', changed);
    const v = video.current;
    const iosOff = () => setOn(false);
    v?.addEventListener('webkitendfullscreen', iosOff);
    return () => {
      document.removeEventListener('fullscreenchange', changed);
      v?.removeEventListener('webkitendfullscreen', iosOff);
    };
  }, [stage, video]);

  const toggle = () => {
    if (document.fullscreenElement) {
      void document.exitFullscreen().catch(() => undefined);
      return;
    }
    const el = stage.current;
    if (el?.requestFullscreen && document.fullscreenEnabled) {
      void el.requestFullscreen().catch(() => undefined);
      return;
    }
    const v = video.current as IosVideo | null;
    if (v?.webkitEnterFullscreen) {
      v.webkitEnterFullscreen();
      setOn(true);
    }
  };
  return { on, toggle };
}

/** Picture-in-picture of the stream's video where the browser has it, so the stream follows the viewer to another app or tab. */
export function usePictureInPicture(video: RefObject<HTMLVideoElement | null>, playing: boolean) {
  const [on, setOn] = useState(false);
  const available = playing && typeof document !== 'undefined' && document.pictureInPictureEnabled === true;
  useEffect(() => {
    const v = video.current;
    if (!v) return;
    const enter = () => setOn(true);
    const leave = () => setOn(false);
    v.addEventListener('enterpictureinpicture', enter);
    v.addEventListener('leavepictureinpicture', leave);
    return () => {
      v.removeEventListener('enterpictureinpicture', enter);
      v.removeEventListener('leavepictureinpicture', leave);
    };
  }, [video]);
  // A stream that stops playing leaves picture-in-picture with it.
  useEffect(() => {
    if (!playing && document.pictureInPictureElement) void document.exitPictureInPicture().catch(() => undefined);
  }, [playing]);

  const toggle = () => {
    const v = video.current;
    if (!v) return;
    if (document.pictureInPictureElement) void document.exitPictureInPicture().catch(() => undefined);
    else void v.requestPictureInPicture().catch(() => undefined);
  };
  return { available, on, toggle };
}
