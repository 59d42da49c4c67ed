import type { PendingMessage } from '../../realtime/storedRoom';
import { quoteMessage } from '../../lib/conversation';
import { focusRing } from '../ui/buttonStyles';
import type { ConversationLook } from './MessageRow';
import { RevealedText } from './RevealedText';
import { MediaImage } from './MediaImage';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

/** A message of ours on its way: sending, or not sent (why, and what can be done). */
export function PendingRow({
  p,
  room,
  look,
  testId,
}: {
  p: PendingMessage;
  room: { retry?: ((clientId: string) => void) | undefined; discard?: ((clientId: string) => void) | undefined };
  look: ConversationLook;
  testId?: string | undefined;
}) {
  const ring = look === 'page' ? focusRing : 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';
  const { i18n } = useLingui();
  const problem = p.problem;
  const status =
    p.status === 'sending'
      ? i18n._(msg`Sending…`)
      : problem
        ? i18n._(msg`Not sent: ${problem}`)
        : i18n._(msg`Not sent yet: it goes once you are back online.`);
  const buttons = p.status === 'failed' && (
    <>
      <button
        type="button"
        onClick={() => room.retry?.(p.clientId)}
        aria-label={i18n._(msg`Retry sending ${quoteMessage(p.text)}`)}
        className={`font-semibold underline ${ring}`}
      >
        <Trans>Retry</Trans>
      </button>
      <button type="button" onClick={() => room.discard?.(p.clientId)} className={`underline ${ring}`}>
        <Trans>Discard</Trans>
      </button>
    </>
  );
  if (look === 'panel')
    return (
      <li data-testid={testId} data-status={p.status} className="text-sm wrap-anywhere text-slate-300">
        <span className="font-bold text-sky-300">
          <Trans>You</Trans>
        </span>{' '}
        <RevealedText text={p.text} />{' '}
        <span className={`inline-flex flex-wrap items-center gap-2 text-xs ${p.status === 'failed' ? 'text-amber-200' : 'text-slate-300'}`}>
          <span>{status}</span>
          {buttons}
        </span>
      </li>
    );
  return (
    <li data-testid={testId} data-status={p.status} className="flex justify-end">
      <div className="max-w-[85%] rounded-2xl rounded-ee-md bg-indigo-700 px-3.5 py-2 text-white opacity-90 sm:max-w-[70%]">
        {p.media && <MediaImage media={p.media} />}
        {(p.text || !p.media) && (
          <p dir="auto" className="whitespace-pre-wrap wrap-anywhere">
            <RevealedText text={p.text} />
          </p>
        )}
        <p className="mt-0.5 flex flex-wrap justify-end gap-2 text-xs text-indigo-100">
          <span>{status}</span>
          {buttons}
        </p>
      </div>
    </li>
  );
}
