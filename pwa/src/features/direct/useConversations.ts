import { useEffect } from 'react';
import { onRoomActivity } from '../../realtime/storedRoom';
import { useConversationsQuery } from './messagesApi';

/** The user's direct conversations, read again whenever one of them moves on (a message on any device). */
export function useConversations() {
  const query = useConversationsQuery();
  const { refetch } = query;
  useEffect(() => onRoomActivity((n) => n.kind === 'direct' && void refetch()), [refetch]);
  return query;
}
