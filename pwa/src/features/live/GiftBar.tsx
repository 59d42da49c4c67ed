import { useRef, useState } from 'react';
import { LIVE_GIFT_AMOUNTS, liveEvents, type LiveGiftAnswer } from '@parley/contract/live';
import { focusRing } from '../../components/FormField';
import { emitSocketWithAck } from '../../realtime/socket';
import { liveRefusal } from './liveRefusals';
import { Trans, useLingui } from '@lingui/react/macro';

const ACK_TIMEOUT_MS = 10_000;

/**
 * A viewer sends the broadcaster gold from their balance; the gift shows in the stream's chat. A
 * gift whose answer never came is retried with the same key, so it is paid at most once.
 */
export function GiftBar({ roomId, broadcaster }: { roomId: string; broadcaster: string }) {
  const { t } = useLingui();
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const [sending, setSending] = useState(false);
  const unanswered = useRef<{ amount: number; key: string } | null>(null);

  const send = async (amount: number) => {
    const key = unanswered.current?.amount === amount ? unanswered.current.key : crypto.randomUUID();
    unanswered.current = { amount, key };
    setSending(true);
    try {
      const ack = await emitSocketWithAck<LiveGiftAnswer>(liveEvents.gift, { roomId, amount, idempotencyKey: key }, ACK_TIMEOUT_MS);
      unanswered.current = null;
      const left = ack.ok ? ack.gold : 0;
      setStatus(
        ack.ok
          ? { text: t`You sent ${amount} gold. ${left} gold left.`, error: false }
          : { text: liveRefusal(ack.code, ack.message), error: true },
      );
    } catch {
      setStatus({ text: t`No answer from the server. Press the same gift again to retry; it is paid only once.`, error: true });
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label={t`Send ${broadcaster} a gift of gold`}>
      <span className="text-sm text-slate-200">
        <Trans>Gift gold:</Trans>
      </span>
      {LIVE_GIFT_AMOUNTS.map((amount) => (
        <button
          key={amount}
          type="button"
          disabled={sending}
          onClick={() => void send(amount)}
          aria-label={t`Gift ${amount} gold to ${broadcaster}`}
          className={`min-h-11 rounded-lg bg-amber-300 px-3 font-semibold text-amber-950 hover:bg-amber-200 ${focusRing}`}
        >
          {amount}
        </button>
      ))}
      {status && (
        <p role={status.error ? 'alert' : 'status'} className={`w-full text-sm ${status.error ? 'text-amber-200' : 'text-emerald-300'}`}>
          {status.text}
        </p>
      )}
    </div>
  );
}
