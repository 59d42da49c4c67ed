import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { notificationEvents, type AppNotification } from '@parley/contract/notifications';
import { toast } from '../../lib/toast';
import { onSocketEvent } from '../../realtime/socket';
import { useMarkNotificationsReadMutation } from './notificationsApi';
import { toastFor } from './noticeToast';
import { useLingui } from '@lingui/react/macro';

/**
 * New direct messages, friend requests, mentions and people going live raise a toast on whatever
 * signed-in page is open (the spec's toast: one at a time, 5 s, F8 to reach it); its Open goes
 * there and marks the notification read. Nothing for the conversation on screen.
 */
export function NotificationToasts() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [markRead] = useMarkNotificationsReadMutation();
  const { i18n, t } = useLingui();
  // Read when a notice arrives, not when the listener was set up: no re-subscription per page.
  const here = useRef(pathname);
  useEffect(() => {
    here.current = pathname;
  }, [pathname]);

  useEffect(
    () =>
      onSocketEvent(notificationEvents.created, (n: AppNotification) => {
        const shown = toastFor(n, here.current);
        if (!shown) return;
        toast({
          title: i18n._(shown.title),
          description: n.count > 1 ? t`${n.text} (+${n.count - 1} more)` : n.text,
          action: {
            label: t`Open`,
            onClick: () => {
              void markRead([n.notificationId]);
              navigate(shown.link);
            },
          },
        });
      }),
    [i18n, t, markRead, navigate],
  );
  return null;
}
