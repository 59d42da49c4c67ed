import { useEffect, useRef, useState } from 'react';
import type { MessageAttachment } from '@parley/contract/attachments';
import { focusRing } from '../ui/buttonStyles';
import { useAttachmentFile, useConversationMedia } from './media';
import { judgePicture, type PictureVerdict } from '../../lib/nudity/pictureClassifier';
import { Trans, useLingui } from '@lingui/react/macro';

/** The thumbnail's longest side on screen, in CSS pixels. */
const THUMB_SHOWN_PX = 240;

/** Verdicts by thumbnail address: a picture scrolled away and back is not judged again. */
const verdicts = new Map<string, Promise<PictureVerdict>>();

/**
 * The nudity guard's verdict on a hidden picture, judged on this device from its thumbnail once
 * it has loaded: 'checking' until it answers, null when it cannot judge.
 */
function usePictureVerdict(key: string, shown: HTMLImageElement | null, hidden: boolean): PictureVerdict | 'checking' {
  const [verdict, setVerdict] = useState<{ key: string; value: PictureVerdict } | null>(null);
  useEffect(() => {
    if (!hidden || !shown) return;
    let live = true;
    let judging = verdicts.get(key);
    if (!judging) {
      const attempt = judgePicture(shown);
      verdicts.set(key, attempt);
      // No verdict (the worker failed): judged again next time, not remembered as unknown.
      void attempt.then((value) => value === null && verdicts.get(key) === attempt && verdicts.delete(key));
      judging = attempt;
    }
    void judging.then((value) => live && setVerdict({ key, value }));
    return () => {
      live = false;
    };
  }, [key, shown, hidden]);
  return verdict?.key === key ? verdict.value : 'checking';
}

/**
 * A picture in a message: its thumbnail, opening full screen. A picture from someone the nudity
 * guard keeps at a distance (not a friend) stays blurred until tapped, and the guard's model says,
 * on this device, whether it may show nudity before anyone taps.
 */
export function PictureAttachment({
  attachment,
  senderId,
  senderName,
  mine,
  localUrl,
}: {
  attachment: Pick<MessageAttachment, 'width' | 'height' | 'thumbUrl' | 'url'>;
  senderId: string;
  senderName: string;
  mine: boolean;
  /** Our own copy, while it is on its way. */
  localUrl?: string;
}) {
  const { t } = useLingui();
  const media = useConversationMedia();
  const [revealed, setRevealed] = useState(false);
  const [open, setOpen] = useState(false);
  const guarded = !mine && !revealed && (media?.guarded(senderId) ?? false);
  const thumb = useAttachmentFile(localUrl ? undefined : attachment.thumbUrl);
  const src = localUrl ?? (thumb === 'failed' ? null : thumb);
  // The thumbnail as drawn, once loaded: what the guard judges.
  const [loadedImage, setLoadedImage] = useState<HTMLImageElement | null>(null);
  const verdict = usePictureVerdict(attachment.thumbUrl ?? attachment.url, loadedImage, guarded);
  const { width = 4, height = 3 } = attachment;
  const scale = Math.min(1, THUMB_SHOWN_PX / Math.max(width, height, 1));
  const alt = mine ? t`Your picture` : t`Picture from ${senderName}`;
  const box = { width: Math.round(width * scale) || THUMB_SHOWN_PX, aspectRatio: `${width || 4} / ${height || 3}` };

  return (
    <>
      <button
        type="button"
        onClick={() => (guarded ? setRevealed(true) : setOpen(true))}
        aria-label={
          guarded
            ? verdict === 'explicit'
              ? t`Show the picture from ${senderName}, which may show nudity`
              : t`Show the picture from ${senderName}`
            : mine
              ? t`Open your picture full screen`
              : t`Open the picture from ${senderName} full screen`
        }
        data-testid="message-picture"
        data-guarded={guarded}
        data-verdict={guarded ? (verdict ?? 'unknown') : undefined}
        style={box}
        className={`relative mt-1 block max-w-full overflow-hidden rounded-xl bg-slate-200 ${focusRing}`}
      >
        {src ? (
          <img
            src={src}
            alt={alt}
            onLoad={(e) => setLoadedImage(e.currentTarget)}
            className={`size-full object-cover ${guarded ? 'scale-110 blur-2xl' : ''}`}
            draggable={false}
          />
        ) : (
          <span className="grid size-full place-items-center p-2 text-sm text-slate-700">
            {thumb === 'failed' ? <Trans>This picture could not be loaded.</Trans> : <Trans>Loading picture…</Trans>}
          </span>
        )}
        {guarded && (
          <span className="absolute inset-0 grid place-items-center bg-slate-900/40 p-3 text-center text-sm font-semibold text-white">
            {verdict === 'explicit' ? (
              <span>
                <Trans>This picture may show nudity</Trans>
                <span className="mt-1 block text-xs font-normal">
                  <Trans>Parley checked it on your device; nothing was sent anywhere. Tap to show it anyway.</Trans>
                </span>
              </span>
            ) : (
              <span>
                <Trans>Tap to show</Trans>
                <span className="mt-1 block text-xs font-normal">
                  <Trans>Hidden because it is from someone who is not your friend.</Trans>
                </span>
              </span>
            )}
          </span>
        )}
      </button>
      {open && <PictureDialog url={localUrl ?? attachment.url} local={localUrl !== undefined} alt={alt} onClose={() => setOpen(false)} />}
    </>
  );
}

/** The picture full screen: a modal dialog (focus kept inside, Escape closes), the picture described by its alt text. */
function PictureDialog({ url, local, alt, onClose }: { url: string; local: boolean; alt: string; onClose(): void }) {
  const { t } = useLingui();
  const dialog = useRef<HTMLDialogElement>(null);
  const loaded = useAttachmentFile(local ? undefined : url);
  const src = local ? url : loaded === 'failed' ? null : loaded;
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      onClick={(e) => e.target === dialog.current && onClose()}
      aria-label={alt}
      className="m-0 h-dvh max-h-none w-dvw max-w-none bg-black/90 p-0 backdrop:bg-black/80"
    >
      <div className="flex h-full flex-col">
        <div className="flex justify-end p-2">
          <button
            type="button"
            onClick={onClose}
            autoFocus
            className="rounded-lg bg-white/10 px-4 py-2 font-semibold text-white hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-white"
          >
            <Trans>Close</Trans>
          </button>
        </div>
        <div className="grid min-h-0 flex-1 place-items-center p-2">
          {src ? (
            <img src={src} alt={alt} className="max-h-full max-w-full object-contain" data-testid="picture-full" />
          ) : (
            <p className="text-white">{loaded === 'failed' ? t`This picture could not be loaded.` : t`Loading picture…`}</p>
          )}
        </div>
      </div>
    </dialog>
  );
}
