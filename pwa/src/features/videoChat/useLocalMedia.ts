import { useCallback, useEffect, useRef, useState } from 'react';
import { LocalMedia } from '../../lib/media/localMedia';
import { listDevices, type DeviceLists, type MediaNotice } from '../../lib/media/devices';
import type { FilterNotice } from '../../lib/media/backgroundFilter';
import type { BackgroundVideoFilter } from './videoChatSlice';

export type LocalMediaView = {
  media: LocalMedia | null;
  /** What the partner receives (and the preview shows): filtered video + microphone. */
  stream: MediaStream | null;
  videoNotice: MediaNotice | null;
  audioNotice: MediaNotice | null;
  devices: DeviceLists;
  opening: boolean;
  retry(): void;
};

/**
 * The camera and microphone while the video chat page is open: opened on arrival, switched when
 * the chosen device or filter changes, and every track stopped when the page is left.
 */
export function useLocalMedia(
  deviceId: string,
  deviceAudioId: string,
  filter: BackgroundVideoFilter,
  onFilterNotice: (n: FilterNotice) => void,
): LocalMediaView {
  const [media, setMedia] = useState<LocalMedia | null>(null);
  const [videoNotice, setVideoNotice] = useState<MediaNotice | null>(null);
  const [audioNotice, setAudioNotice] = useState<MediaNotice | null>(null);
  const [devices, setDevices] = useState<DeviceLists>({ cameras: [], microphones: [] });
  const [opening, setOpening] = useState(true);
  const [attempt, setAttempt] = useState(0);
  // The devices and filter the open media currently use, to switch only on a real change.
  const current = useRef({ deviceId, deviceAudioId, filter });
  const latest = useRef({ deviceId, deviceAudioId, filter, onFilterNotice });
  useEffect(() => {
    latest.current = { deviceId, deviceAudioId, filter, onFilterNotice };
  });

  useEffect(() => {
    const { deviceId: cam, deviceAudioId: mic, filter: f } = latest.current;
    const m = new LocalMedia({ onNotice: (n) => latest.current.onFilterNotice(n) });
    let cancelled = false;
    current.current = { deviceId: cam, deviceAudioId: mic, filter: f };
    void m.open(cam, mic, f).then(async (result) => {
      if (cancelled) return;
      setVideoNotice(result.video);
      setAudioNotice(result.audio);
      setMedia(m);
      setOpening(false);
      setDevices(await listDevices().catch(() => ({ cameras: [], microphones: [] })));
    });
    const onDeviceChange = () => void listDevices().then((d) => !cancelled && setDevices(d));
    navigator.mediaDevices?.addEventListener?.('devicechange', onDeviceChange);
    // Closing the tab: release the camera at once rather than when the page is torn down.
    const onPageHide = () => m.close();
    window.addEventListener('pagehide', onPageHide);
    return () => {
      cancelled = true;
      navigator.mediaDevices?.removeEventListener?.('devicechange', onDeviceChange);
      window.removeEventListener('pagehide', onPageHide);
      m.close();
      setMedia(null);
    };
  }, [attempt]);

  useEffect(() => {
    if (!media || current.current.deviceId === deviceId) return;
    current.current.deviceId = deviceId;
    void media.switchCamera(deviceId).then(setVideoNotice);
  }, [media, deviceId]);

  useEffect(() => {
    if (!media || current.current.deviceAudioId === deviceAudioId) return;
    current.current.deviceAudioId = deviceAudioId;
    void media.switchMicrophone(deviceAudioId).then(setAudioNotice);
  }, [media, deviceAudioId]);

  useEffect(() => {
    if (!media || current.current.filter === filter) return;
    current.current.filter = filter;
    media.setFilter(filter);
  }, [media, filter]);

  const retry = useCallback(() => {
    setOpening(true);
    setAttempt((a) => a + 1);
  }, []);
  return { media, stream: media?.outgoing ?? null, videoNotice, audioNotice, devices, opening, retry };
}
