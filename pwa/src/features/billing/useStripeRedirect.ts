import { useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { describeApiError } from '../../lib/apiError';

type Opened = { data?: { url: string }; error?: unknown };

/**
 * Opens a Stripe page (Checkout or the portal) from a server call. Each attempt carries its own id,
 * so a double tap makes one session (the server's idempotency key); a failure is kept to show.
 */
export function useStripeRedirect() {
  const [error, setError] = useState<string | null>(null);
  const attempt = useRef(crypto.randomUUID());
  const { t } = useLingui();
  async function open(call: (attemptId: string) => Promise<Opened>) {
    setError(null);
    const result = await call(attempt.current);
    if (result.data) window.location.assign(result.data.url);
    else setError(describeApiError(result.error, t`Stripe could not be opened. Please try again.`));
    attempt.current = crypto.randomUUID();
  }
  return { error, setError, open };
}
