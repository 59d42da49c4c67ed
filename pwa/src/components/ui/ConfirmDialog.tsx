import { useId, useState, type FormEvent } from 'react';
import { Button } from './Button';
import { Dialog } from './Dialog';
import { useAsk, type AskAnswer, type AskRequest } from './askDialog';
import { useLingui } from '@lingui/react/macro';

type Props = AskRequest & {
  open: boolean;
  /** Called once: with the answer (the reason written) or null when cancelled, Esc or the backdrop. */
  onAnswer: (answer: AskAnswer) => void;
};

/**
 * A confirmation in the app's dialog; with `reason`, a prompt that asks why (a kick, a ban) and
 * says who will read it. Enter in the field confirms; a required reason must be written first.
 */
export function ConfirmDialog({ open, onAnswer, title, description, confirmLabel, danger = false, reason }: Props) {
  const { t } = useLingui();
  const [text, setText] = useState('');
  const [tried, setTried] = useState(false);
  const fieldId = useId();
  const formId = useId();
  const missing = Boolean(reason?.required) && text.trim() === '';

  const close = (answer: AskAnswer) => {
    onAnswer(answer);
    setText('');
    setTried(false);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (missing) return setTried(true);
    close({ reason: text.trim() });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && close(null)}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="secondary" onClick={() => close(null)}>
            {t`Cancel`}
          </Button>
          <Button type="submit" form={formId} variant={danger ? 'danger' : 'primary'}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        {reason && (
          <div className="grid gap-1.5">
            <label htmlFor={fieldId} className="text-body-sm font-medium text-fg">
              {reason.label}
            </label>
            <textarea
              id={fieldId}
              value={text}
              maxLength={reason.maxLength}
              rows={3}
              aria-invalid={tried && missing ? true : undefined}
              aria-describedby={`${fieldId}-hint${tried && missing ? ` ${fieldId}-error` : ''}`}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                // Enter confirms, as the prompt it replaces did; Shift+Enter is a new line.
                if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                  e.preventDefault();
                  e.currentTarget.form?.requestSubmit();
                }
              }}
              className="block w-full resize-y rounded-control border border-line-strong bg-surface px-3 py-2 text-body text-fg placeholder:text-fg-subtle focus:border-focus focus:outline-2 focus:outline-focus aria-[invalid=true]:border-danger"
            />
            <p id={`${fieldId}-hint`} className="text-caption text-fg-subtle">
              {reason.hint ? `${reason.hint} ` : ''}
              {t`${reason.maxLength - text.length} characters left.`}
            </p>
            {tried && missing && (
              <p id={`${fieldId}-error`} className="text-body-sm text-danger-text">
                {t`Write a reason first.`}
              </p>
            )}
          </div>
        )}
      </form>
    </Dialog>
  );
}

/** Shows what `ask()` asks, wherever it was asked from: mounted once in the signed-in frame. */
export function AskDialogHost() {
  const pending = useAsk();
  if (!pending) return null;
  const { id, answer, ...request } = pending;
  return <ConfirmDialog key={id} open {...request} onAnswer={answer} />;
}
