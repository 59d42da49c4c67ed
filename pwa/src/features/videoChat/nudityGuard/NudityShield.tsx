import { useId } from 'react';
import { ReportAction } from '../../../components/conversation/ReportAction';
import type { ReportChoice } from '../../../realtime/reportEvidence';
import { Trans } from '@lingui/react/macro';

/**
 * Over the partner's blurred video: what happened, "Show anyway", and Report with nudity ticked.
 * The check ran on this device; nothing was sent anywhere.
 */
export function NudityShield({
  partnerName,
  onReveal,
  onReport,
}: {
  partnerName: string;
  onReveal(): void;
  onReport(choice: ReportChoice): Promise<void>;
}) {
  const titleId = useId();
  return (
    <div
      role="group"
      aria-labelledby={titleId}
      data-testid="nudity-shield"
      className="absolute inset-0 z-10 grid place-items-center bg-slate-950/40 p-4"
    >
      <div className="grid max-w-sm gap-3 rounded-2xl bg-slate-900/95 px-5 py-4 text-center shadow-xl ring-1 ring-slate-700">
        <p id={titleId} role="status" className="text-lg font-bold text-white">
          <Trans>{partnerName}'s video may show nudity</Trans>
        </p>
        <p className="text-sm text-slate-200">
          <Trans>Parley blurred it on your device. Nothing was sent anywhere.</Trans>
        </p>
        <div className="flex flex-wrap justify-center gap-2">
          <button
            type="button"
            onClick={onReveal}
            className="min-h-11 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-slate-900 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            <Trans>Show anyway</Trans>
          </button>
          <ReportAction partnerName={partnerName} onSend={onReport} tone="dark" reason="nudity" />
        </div>
      </div>
    </div>
  );
}
