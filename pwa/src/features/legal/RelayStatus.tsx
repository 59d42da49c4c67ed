import { useRtcRelayQuery } from './legalApi';
import { Trans, useLingui } from '@lingui/react/macro';

/** What this server does with 1:1 video, read from its own setting, in a sentence. */
export function RelayStatus() {
  const { data, isError } = useRtcRelayQuery();
  const { t } = useLingui();
  let text: string;
  if (isError) text = t`We could not read this server’s setting just now: assume a call shows your IP address to the other person.`;
  else if (!data) text = t`Checking this server’s setting…`;
  else if (data.relayOnly)
    text = t`This server has a relay: every 1:1 video call goes through it, so the person you meet never sees your IP address (and you never see theirs).`;
  else
    text = t`This server has no relay: a 1:1 video call connects your browser directly to the other person’s, and each of you can see the other’s IP address, which tells roughly where you are and which internet provider you use.`;
  return (
    <p data-testid="relay-status" aria-live="polite">
      <Trans>
        <strong>On this server:</strong> {text}
      </Trans>
    </p>
  );
}
