import { billingEvents, type EntitlementsChanged } from '@parley/contract/billing';
import { onSocketEvent } from '../../realtime/socket';

/**
 * When a payment changes the user's tier, the server tells their open sockets; the page then
 * takes a fresh access token (which carries `premiumUser`) and refetches billing data.
 */
export function watchEntitlements(actions: { refresh(): Promise<unknown>; invalidate(): void }): () => void {
  return onSocketEvent(billingEvents.entitlements, (payload: unknown) => {
    if (typeof (payload as EntitlementsChanged | null)?.premiumUser !== 'string') return;
    void actions.refresh().finally(() => actions.invalidate());
  });
}
