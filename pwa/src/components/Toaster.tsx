import * as ToastPrimitive from '@radix-ui/react-toast';
import { TOAST_DURATION_MS, TOAST_HOTKEY, TOAST_SWIPE_DIRECTION, TOAST_SWIPE_THRESHOLD } from '../lib/uiConstants.ts';
import { dismissToast, useToast } from '../lib/toast';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';

/** The always-present toast area: Radix Toast with the spec's constants. */
export function Toaster() {
  const { toasts } = useToast();
  const { i18n } = useLingui();
  // Radix puts the key in place of "{hotkey}": the placeholder passes through the message as a value.
  const hotkey = '{hotkey}';
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection={TOAST_SWIPE_DIRECTION} swipeThreshold={TOAST_SWIPE_THRESHOLD}>
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          duration={t.duration}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id);
          }}
          className={`pointer-events-auto flex w-full items-start gap-3 rounded-xl border p-4 shadow-lg data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-full data-[state=closed]:opacity-0 motion-safe:transition ${
            t.variant === 'error' ? 'border-red-300 bg-red-50 text-red-900' : 'border-slate-200 bg-white text-slate-900'
          }`}
        >
          <div className="grid flex-1 gap-1">
            {t.title && <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>}
            {t.description && <ToastPrimitive.Description className="text-sm opacity-90">{t.description}</ToastPrimitive.Description>}
          </div>
          {t.action && (
            <ToastPrimitive.Action
              altText={t.action.label}
              onClick={t.action.onClick}
              className="shrink-0 rounded-md bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700"
            >
              {t.action.label}
            </ToastPrimitive.Action>
          )}
          <ToastPrimitive.Close
            aria-label={i18n._(msg`Close`)}
            className="shrink-0 rounded-md px-2 text-lg leading-none text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-700"
          >
            <span aria-hidden="true">×</span>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      {/* On a phone at the top, where nothing is pressed: at the bottom a toast covered the buttons under the thumb (a form's submit, the chat's Next and Send). Bottom right on wider screens. */}
      <ToastPrimitive.Viewport
        hotkey={TOAST_HOTKEY}
        label={i18n._(msg`Notifications (${hotkey})`)}
        className="fixed inset-x-0 top-0 z-[100] m-0 flex w-full list-none flex-col gap-2 p-3 outline-none sm:inset-x-auto sm:top-auto sm:end-0 sm:bottom-0 sm:max-w-sm sm:p-4"
      />
    </ToastPrimitive.Provider>
  );
}
