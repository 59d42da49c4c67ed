import { useEffect, useState } from 'react';
import type { AuthProviders } from '@parley/contract/auth';

/** Whether this server can send email (GET /api/auth/providers); null until known. */
export function useEmailAvailable(): boolean | null {
  const [email, setEmail] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    fetch('/api/auth/providers', { credentials: 'same-origin' })
      .then((r) => (r.ok ? (r.json() as Promise<AuthProviders>) : null))
      .then((p) => live && p && setEmail(p.email))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return email;
}
