import { useId, useRef, useState, type FormEvent } from 'react';
import { REPORT_REASONS, type ReportReason } from '@parley/contract/safety';
import type { ReportChoice } from '../../realtime/reportEvidence';
import { Trans, useLingui } from '@lingui/react/macro';
import { REASON_LABELS } from './reportReasons';

const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700';
/** On a dark background the focus outline is white, so it stays visible. */
const darkFocusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';

/**
 * "Report" and its dialog: a reason, an optional note, and "also block" (ticked). Two taps from
 * the conversation. A native modal dialog: focus stays inside, Esc closes it, the page behind is inert.
 */
export function ReportAction({
  partnerName,
  onSend,
  tone = 'light',
  subject,
  evidence,
  reason: preselected = null,
}: {
  partnerName: string;
  /** Sends the report; rejects with an Error whose message the dialog shows. */
  onSend(choice: ReportChoice): Promise<void>;
  /** `menu`: a small item among a message's actions. */
  tone?: 'light' | 'dark' | 'menu';
  /** What is reported when it is not the person ("Tom's message", "this stream"), for the button's name. */
  subject?: string;
  /** What goes with the report, said in the dialog. */
  evidence?: string;
  /** The reason ticked when the dialog opens, where the place of the report already tells it. */
  reason?: ReportReason | null;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [block, setBlock] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const titleId = useId();
  const noteId = useId();
  const { i18n, t } = useLingui();

  const open = () => {
    setReason(preselected);
    setNote('');
    setBlock(true);
    setError(null);
    dialog.current?.showModal();
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!reason) {
      setError(t`Choose what happened.`);
      return;
    }
    setSending(true);
    setError(null);
    try {
      await onSend({ reason, note, block });
      dialog.current?.close();
    } catch (err) {
      setError(err instanceof Error ? err.message : t`The report could not be sent. Please try again.`);
    } finally {
      setSending(false);
    }
  }

  const trigger = {
    dark: 'rounded-lg px-3 py-2 text-sm font-semibold text-rose-200 ring-1 ring-rose-300/60 hover:bg-rose-900/40',
    light: 'rounded-lg px-3 py-2 text-sm font-semibold text-rose-800 ring-1 ring-rose-300 hover:bg-rose-50',
    menu: 'rounded px-2 py-1 text-sm font-medium text-rose-800 hover:bg-rose-50',
  }[tone];
  return (
    <>
      <button
        type="button"
        onClick={open}
        aria-label={subject ? t`Report ${subject}` : undefined}
        className={`${trigger} ${tone === 'dark' ? darkFocusRing : focusRing}`}
      >
        <Trans>Report</Trans>
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/60"
      >
        <form method="dialog" onSubmit={submit} className="grid gap-4 p-5">
          <h2 id={titleId} className="text-lg font-bold">
            <Trans>Report {partnerName}</Trans>
          </h2>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-semibold text-slate-800">
              <Trans>What happened?</Trans>
            </legend>
            {REPORT_REASONS.map((r) => (
              <label
                key={r}
                className={`flex min-h-11 cursor-pointer items-center gap-3 rounded-xl px-3 ring-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-700 ${reason === r ? 'bg-rose-50 ring-rose-400' : 'ring-slate-200'}`}
              >
                <input
                  type="radio"
                  name="reason"
                  value={r}
                  checked={reason === r}
                  onChange={() => setReason(r)}
                  className="size-4 accent-rose-700"
                />
                {i18n._(REASON_LABELS[r])}
              </label>
            ))}
          </fieldset>
          <div className="grid gap-1">
            <label htmlFor={noteId} className="text-sm font-semibold text-slate-800">
              <Trans>
                Anything to add? <span className="font-normal text-slate-600">(optional)</span>
              </Trans>
            </label>
            <textarea
              id={noteId}
              value={note}
              maxLength={1000}
              rows={2}
              onChange={(e) => setNote(e.target.value)}
              className={`rounded-lg border border-slate-300 px-3 py-2 text-base ${focusRing}`}
            />
          </div>
          <label className="flex items-center gap-3 text-base">
            <input type="checkbox" checked={block} onChange={(e) => setBlock(e.target.checked)} className="size-5 accent-indigo-700" />
            <Trans>Also block {partnerName}: you will not be matched again</Trans>
          </label>
          <p className="text-sm text-slate-600">
            {evidence ?? t`The last messages of this chat go with the report, so our team can see what happened.`}
          </p>
          {error && (
            <p role="alert" className="rounded-lg bg-rose-50 px-3 py-2 text-rose-900">
              {error}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <button
              type="button"
              onClick={() => dialog.current?.close()}
              className={`rounded-lg px-4 py-2.5 font-semibold text-slate-800 ring-1 ring-slate-300 ${focusRing}`}
            >
              <Trans>Cancel</Trans>
            </button>
            <button
              type="submit"
              disabled={sending}
              className={`rounded-lg bg-rose-700 px-4 py-2.5 font-semibold text-white hover:bg-rose-800 disabled:opacity-60 ${focusRing}`}
            >
              <Trans>Send report</Trans>
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
