import { useRef, useState } from 'react';
import { LIVE_GIFT_AMOUNTS } from '@parley/contract/live';
import { focusRing } from '../../components/ui/buttonStyles';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { useGoldBalanceQuery, useSendGiftMutation } from './liveApi';
import { liveRefusal } from './liveRefusals';
import { Trans, useLingui } from '@lingui/react/macro';

/**
 * A viewer sends the broadcaster gold from their balance, once they confirmed the price against
 * that balance; the gift shows in the stream's chat. A gift whose answer never came is retried
 * with the same key, so it is paid at most once.
 */
export function GiftBar({ roomId, broadcaster }: { roomId: string; broadcaster: string }) {
  const { t } = useLingui();
  const balance = useGoldBalanceQuery();
  const [sendGift, { isLoading: sending }] = useSendGiftMutation();
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const [asking, setAsking] = useState<number | null>(null);
  const unanswered = useRef<{ amount: number; key: string } | null>(null);

  const send = async (amount: number) => {
    const key = unanswered.current?.amount === amount ? unanswered.current.key : crypto.randomUUID();
    unanswered.current = { amount, key };
    const answer = await sendGift({ roomId, amount, idempotencyKey: key });
    if (!answer.data) {
      setStatus({ text: t`No answer from the server. Press the same gift again to retry; it is paid only once.`, error: true });
      return;
    }
    unanswered.current = null;
    const ack = answer.data;
    const left = ack.ok ? ack.gold : 0;
    setStatus(
      ack.ok
        ? { text: t`You sent ${amount} gold. ${left} gold left.`, error: false }
        : { text: liveRefusal(ack.code, ack.message), error: true },
    );
  };

  const gold = balance.data;
  const price = asking ?? 0;
  const after = (balance.data ?? 0) - price;
  const description =
    gold === undefined
      ? balance.isError
        ? t`We could not read your balance. The gift is refused if you do not have enough gold.`
        : t`Reading your balance…`
      : gold >= price
        ? t`You have ${gold} gold; ${after} gold will be left.`
        : t`You have ${gold} gold: not enough for this gift.`;

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
          onClick={() => {
            setAsking(amount);
            // The balance may have moved since (a gift from another tab, a reward): read it again for the question.
            void balance.refetch();
          }}
          aria-label={t`Gift ${amount} gold to ${broadcaster}`}
          className={`min-h-11 rounded-lg bg-amber-300 px-3 font-semibold text-amber-950 hover:bg-amber-200 ${focusRing}`}
        >
          {amount}
        </button>
      ))}
      <ConfirmDialog
        open={asking !== null}
        title={t`Send ${price} gold to ${broadcaster}?`}
        description={description}
        confirmLabel={t`Send ${price} gold`}
        onAnswer={(answer) => {
          setAsking(null);
          if (answer && asking !== null) void send(asking);
        }}
      />
      {status && (
        <p role={status.error ? 'alert' : 'status'} className={`w-full text-sm ${status.error ? 'text-amber-200' : 'text-emerald-300'}`}>
          {status.text}
        </p>
      )}
    </div>
  );
}
