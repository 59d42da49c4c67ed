import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { PartnerNudityGuard, type NudityGuardStats, type NudityGuardStatus } from './partnerGuard';

/**
 * The nudity guard over the partner's <video> while `enabled` (the user's setting): its status for
 * the page, "Show anyway", and its rates. A new `stream` is a new partner, judged afresh.
 */
export function useNudityGuard({
  enabled,
  video,
  stream,
}: {
  enabled: boolean;
  video: RefObject<HTMLVideoElement | null>;
  stream: MediaStream | null;
}) {
  const [status, setStatus] = useState<NudityGuardStatus>('loading');
  const guard = useRef<PartnerNudityGuard | null>(null);

  useEffect(() => {
    if (!enabled) return;
    const g = new PartnerNudityGuard(() => video.current, setStatus);
    guard.current = g;
    return () => {
      g.stop();
      guard.current = null;
    };
  }, [enabled, video]);

  useEffect(() => guard.current?.newPartner(), [stream]);

  const reveal = useCallback(() => guard.current?.reveal(), []);
  const stats = useCallback((): NudityGuardStats | null => guard.current?.stats() ?? null, []);
  return { status: enabled ? status : ('off' as const), reveal, stats };
}
