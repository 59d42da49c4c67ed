import { useEffect, useRef, useState } from 'react';
import { NOTHING_SEEN, statusAnnouncement, type OwnMessageView, type StatusSeen } from '../lib/messageStatus';

/**
 * A polite, visually hidden status line that reads out changes of the user's own messages (refused,
 * waiting for the connection, sent after waiting): see lib/messageStatus.ts. What is already in
 * the conversation when it mounts is not announced.
 */
export function MessageStatusAnnouncer({ messages, canRetry }: { messages: readonly OwnMessageView[]; canRetry: boolean }) {
  const seen = useRef<StatusSeen | undefined>(undefined);
  const [said, setSaid] = useState<{ text: string; n: number }>();
  useEffect(() => {
    const r = statusAnnouncement(seen.current ?? NOTHING_SEEN, messages, canRetry);
    const first = seen.current === undefined;
    seen.current = r.seen;
    if (r.text && !first) setSaid((p) => ({ text: r.text!, n: (p?.n ?? 0) + 1 }));
    // A change of canRetry alone (connection back or lost) changes no message: nothing to say.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [messages]);
  // A new node for each announcement, so that the same words said twice are read twice.
  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid="message-status">
      {said && <span key={said.n}>{said.text}</span>}
    </div>
  );
}
