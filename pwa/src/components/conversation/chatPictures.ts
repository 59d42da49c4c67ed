import { useMemo } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { StoredRoomConnection, StoredRoomState } from '../../realtime/storedRoom';

/**
 * Pictures in a 1:1 chat with a stranger: each side allows them for this chat alone, and the
 * picture button works only while both do (the server refuses a picture otherwise). `consent` is
 * null where the chat offers no such choice (it ended, or the server did not say).
 */
export function useChatPictures({
  state,
  room,
  myId,
  partnerId,
}: {
  state: Pick<StoredRoomState, 'picturesAllowedBy'>;
  /** The chat's connection while it is on; null once it ended. */
  room: Pick<StoredRoomConnection, 'sendAttachment' | 'allowPictures'> | null;
  myId: string;
  partnerId: string | null;
}) {
  const { t } = useLingui();
  const allowedBy = state.picturesAllowedBy;
  const mine = allowedBy?.includes(myId) ?? false;
  const theirs = partnerId !== null && (allowedBy?.includes(partnerId) ?? false);
  const picturesOff = mine && theirs ? undefined : t`Pictures can be sent once you both allow them in this chat.`;
  const attach = useMemo(
    () => (room && allowedBy ? { onPicture: (file: File) => room.sendAttachment('image', file), picturesOff } : undefined),
    [room, allowedBy, picturesOff],
  );
  const consent = useMemo(
    () => (room && allowedBy ? { mine, theirs, setAllowed: (on: boolean) => room.allowPictures(on) } : null),
    [room, allowedBy, mine, theirs],
  );
  return { consent, attach };
}
