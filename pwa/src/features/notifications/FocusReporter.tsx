import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { notificationEvents, type Focus } from '@parley/contract/notifications';
import { emitSocket, useSocketStatus } from '../../realtime/socket';

/**
 * Tells the server what this page shows and whether it is visible, so nothing is pushed about a
 * conversation the person is reading. Sent again on every navigation, visibility change and (re)connection.
 */
export function FocusReporter() {
  const { pathname } = useLocation();
  const status = useSocketStatus();
  useEffect(() => {
    if (status !== 'connected') return;
    const report = () => {
      const focus: Focus = { path: pathname, visible: document.visibilityState === 'visible' };
      emitSocket(notificationEvents.focus, focus);
    };
    report();
    document.addEventListener('visibilitychange', report);
    return () => document.removeEventListener('visibilitychange', report);
  }, [pathname, status]);
  return null;
}
