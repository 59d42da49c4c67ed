import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { LIVE_CATEGORIES, LIVE_TITLE_MAX, type LiveCategory } from '@parley/contract/live';
import { useAppSelector } from '../../store/hooks';
import { focusRing, primaryButton } from '../../components/ui/buttonStyles';
import { DeviceSettings } from '../../components/media/DeviceSettings';
import { LocalMedia } from '../../lib/media/localMedia';
import { listDevices, type DeviceLists, type MediaNotice } from '../../lib/media/devices';
import type { BackgroundVideoFilter } from '../../lib/media/backgroundFilter';
import { describeApiError, errorBody } from '../../lib/apiError';
import { useEndStreamMutation, useGoLiveMutation, usePutThumbnailMutation } from './liveApi';
import { startBroadcast } from './broadcast';
import { LiveRefusal } from './liveMedia';
import { liveRefusal } from './liveRefusals';
import { categoryName } from '../../lib/categoryNames';
import { Trans, useLingui } from '@lingui/react/macro';

/**
 * Going live: title, category, camera, microphone and background filter with a preview of what
 * viewers will see. Starting publishes this preview's media; the page then moves to the stream.
 */
export function GoLivePanel({ onCancel }: { onCancel: () => void }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const saved = useAppSelector((s) => s.videoChat);
  const [title, setTitle] = useState('');
  const [category, setCategory] = useState<LiveCategory>('Just chatting');
  const [camera, setCamera] = useState(saved.deviceId);
  const [microphone, setMicrophone] = useState(saved.deviceAudioId);
  const [filter, setFilter] = useState<BackgroundVideoFilter>(saved.backgroundVideoFilter);
  const [devices, setDevices] = useState<DeviceLists>({ cameras: [], microphones: [] });
  const [notice, setNotice] = useState<MediaNotice | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [media, setMedia] = useState<LocalMedia | null>(null);
  const handedOver = useRef(false);
  const preview = useRef<HTMLVideoElement>(null);
  const [goLive] = useGoLiveMutation();
  const [putThumbnail] = usePutThumbnailMutation();
  const [endStream] = useEndStreamMutation();

  useEffect(() => {
    const m = new LocalMedia();
    let cancelled = false;
    void m.open(saved.deviceId, saved.deviceAudioId, saved.backgroundVideoFilter).then(async (result) => {
      if (cancelled) return;
      setNotice(result.video ?? result.audio);
      setMedia(m);
      setDevices(await listDevices().catch(() => ({ cameras: [], microphones: [] })));
    });
    return () => {
      cancelled = true;
      // Once live, the broadcast owns the camera; otherwise leaving the set-up releases it.
      if (!handedOver.current) m.close();
    };
    // The saved choices seed the first opening only; later changes switch devices below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (preview.current && media) {
      preview.current.srcObject = media.outgoing;
      void preview.current.play().catch(() => undefined);
    }
  }, [media]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!media || starting) return;
    setError(null);
    setStarting(true);
    let roomId: string | null = null;
    try {
      roomId = (await goLive({ title, category }).unwrap()).roomId;
      const id = roomId;
      handedOver.current = true;
      await startBroadcast(id, media, (image) => void putThumbnail({ roomId: id, image }));
      void navigate(`/livestream/${id}`);
    } catch (err) {
      // A stream whose media never started is ended, so the user may try again at once.
      if (roomId) void endStream(roomId);
      handedOver.current = false;
      setError(
        err instanceof LiveRefusal
          ? liveRefusal(err.code, err.message)
          : err instanceof Error
            ? err.message
            : liveRefusal(errorBody(err).code, describeApiError(err, t`The stream could not start. Please try again.`)),
      );
      setStarting(false);
    }
  };

  const input = `mt-1 block w-full min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-slate-900 ${focusRing}`;
  return (
    <section aria-labelledby="go-live-heading" className="keep-palette rounded-2xl bg-slate-900 p-4 text-white sm:p-6">
      <h2 id="go-live-heading" className="text-xl font-bold">
        <Trans>Go live</Trans>
      </h2>
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        <div>
          <video
            ref={preview}
            muted
            playsInline
            className="aspect-video w-full rounded-xl bg-black object-cover"
            aria-label={t`Preview of your camera`}
            data-testid="live-preview"
          />
          {notice && (
            <p role="status" className="mt-2 rounded-lg bg-amber-100 p-2 text-sm text-amber-950">
              <strong>{notice.title}</strong> {notice.description}
            </p>
          )}
          <DeviceSettings
            devices={devices}
            deviceId={camera}
            deviceAudioId={microphone}
            filter={filter}
            onCamera={(id) => {
              setCamera(id);
              void media?.switchCamera(id);
            }}
            onMicrophone={(id) => {
              setMicrophone(id);
              void media?.switchMicrophone(id);
            }}
            onFilter={(f) => {
              setFilter(f);
              media?.setFilter(f);
            }}
          />
        </div>
        <form onSubmit={(e) => void submit(e)} className="grid content-start gap-3">
          <label className="block text-sm font-medium" htmlFor="live-title">
            <Trans>Title</Trans>
            <input
              id="live-title"
              aria-describedby="live-title-count"
              className={input}
              value={title}
              maxLength={LIVE_TITLE_MAX}
              required
              onChange={(e) => setTitle(e.target.value)}
            />
          </label>
          <p id="live-title-count" className="-mt-2 text-xs text-slate-300">
            <Trans>
              {title.length}/{LIVE_TITLE_MAX} characters
            </Trans>
          </p>
          <label className="block text-sm font-medium" htmlFor="live-category">
            <Trans>Category</Trans>
            <select id="live-category" className={input} value={category} onChange={(e) => setCategory(e.target.value as LiveCategory)}>
              {LIVE_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {categoryName(c)}
                </option>
              ))}
            </select>
          </label>
          {error && (
            <p role="alert" className="rounded-lg bg-red-100 p-2 text-sm text-red-900">
              {error}
            </p>
          )}
          <button type="submit" className={primaryButton} disabled={!media || starting || title.trim() === ''}>
            {starting ? t`Starting…` : t`Start streaming`}
          </button>
          <button
            type="button"
            onClick={onCancel}
            className={`min-h-11 rounded-lg border border-slate-500 px-4 font-semibold ${focusRing}`}
          >
            <Trans>Cancel</Trans>
          </button>
        </form>
      </div>
    </section>
  );
}
