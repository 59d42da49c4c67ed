import { useCallback, useEffect, useRef } from 'react';
import type { RoomMessage } from '@parley/contract/rooms';
import { useAppDispatch } from '../../store/hooks';
import { useFileReportMutation } from '../../store/api';
import { conversationReport, reportOutcome, type ReportChoice } from '../../realtime/reportEvidence';
import { textChatRoom } from './textChatRoom';

/** Reports the text chat's partner with the conversation's signed messages; rejects with a readable Error. */
export function useReportPartner(conversation: { messages: readonly RoomMessage[]; myId: string }) {
  const dispatch = useAppDispatch();
  const [fileReport] = useFileReportMutation();
  // Read when sent: the callback stays the same as messages arrive (the conversation does not render again for it).
  const latest = useRef(conversation);
  useEffect(() => {
    latest.current = conversation;
  }, [conversation]);
  return useCallback(
    async (choice: ReportChoice) => {
      const body = dispatch((_d, getState) => conversationReport(getState().chat, latest.current, 'textChat', choice));
      reportOutcome(choice, body && (await fileReport(body)));
      // The server has ended the chat; this page does not wait for its word.
      dispatch(textChatRoom.reported());
    },
    [dispatch, fileReport],
  );
}
