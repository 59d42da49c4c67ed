import * as DialogPrimitive from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { focusRing } from './buttonStyles';
import { useLingui } from '@lingui/react/macro';

/** The dialog's parts that callers place themselves: the root (open state) and a trigger or close button. */
export const DialogRoot = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

type ContentProps = {
  title: ReactNode;
  /** One sentence under the title, read with it; omit when the body says it. */
  description?: ReactNode;
  children?: ReactNode;
  /** The buttons at the end (start on a wide screen's end side, stacked full width on a phone). */
  footer?: ReactNode;
  /** Where focus goes first (default: the first focusable control). */
  onOpenAutoFocus?: (e: Event) => void;
};

/**
 * A modal dialog in the app's look (Radix: focus kept inside and given back, Esc and the backdrop
 * close it, the rest of the page hidden from screen readers). Centred on a wide screen, a sheet
 * at the bottom on a phone, where the thumb is.
 */
export function DialogContent({ title, description, children, footer, onOpenAutoFocus }: ContentProps) {
  const { t } = useLingui();
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-[90] bg-black/50 motion-safe:transition-opacity motion-safe:duration-(--duration-base)" />
      <DialogPrimitive.Content
        {...(description ? {} : { 'aria-describedby': undefined })}
        onOpenAutoFocus={onOpenAutoFocus}
        className="fixed inset-x-0 bottom-0 z-[95] grid max-h-[90dvh] gap-4 overflow-y-auto rounded-t-card border border-line bg-surface p-5 pb-[max(1.25rem,env(safe-area-inset-bottom))] text-fg shadow-overlay outline-none sm:inset-x-auto sm:start-1/2 sm:top-1/2 sm:bottom-auto sm:w-[min(32rem,calc(100vw-2rem))] sm:-translate-y-1/2 sm:rounded-card sm:pb-5 sm:ltr:-translate-x-1/2 sm:rtl:translate-x-1/2"
      >
        <div className="grid gap-1 pe-10">
          <DialogPrimitive.Title className="text-title font-bold text-fg">{title}</DialogPrimitive.Title>
          {description && <DialogPrimitive.Description className="text-body-sm text-fg-muted">{description}</DialogPrimitive.Description>}
        </div>
        {children}
        {footer && <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{footer}</div>}
        <DialogPrimitive.Close
          aria-label={t`Close`}
          className={`absolute top-3 end-3 inline-flex size-11 items-center justify-center rounded-full text-fg-muted hover:bg-surface-hover hover:text-fg ${focusRing}`}
        >
          <span aria-hidden="true" className="text-2xl leading-none">
            ×
          </span>
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/** A dialog whose open state the caller holds. */
export function Dialog({ open, onOpenChange, ...content }: ContentProps & { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <DialogContent {...content} />
    </DialogRoot>
  );
}
