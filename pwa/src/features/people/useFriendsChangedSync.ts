import { useEffect } from 'react';
import { peopleEvents } from '@parley/contract/people';
import { api } from '../../store/api';
import { useAppDispatch } from '../../store/hooks';
import { onSocketEvent } from '../../realtime/socket';

/**
 * A friend request sent, answered or withdrawn (by either person, on any device) refetches what
 * shows the relation: the friends and requests lists, profiles, recent partners, a chat's partner
 * card. Mounted once in the signed-in frame, so a page that lists no friends follows too.
 */
export function useFriendsChangedSync() {
  const dispatch = useAppDispatch();
  useEffect(
    () => onSocketEvent(peopleEvents.friendsChanged, () => dispatch(api.util.invalidateTags([{ type: 'User', id: 'FRIENDS' }]))),
    [dispatch],
  );
}
