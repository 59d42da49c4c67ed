import { useCallback } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { useFileReportMutation } from '../../app/api';
import { conversationReport, reportOutcome, type ReportChoice } from '../../realtime/reportEvidence';
import { textChatRoom } from './textChatRoom';

/** Reports the text chat's partner with the conversation's verified messages; rejects with a readable Error. */
export function useReportPartner() {
  const dispatch = useAppDispatch();
  const [fileReport] = useFileReportMutation();
  return useCallback(
    async (choice: ReportChoice) => {
      const body = dispatch((_d, getState) => conversationReport(getState().chat, 'textChat', choice));
      reportOutcome(choice, body && (await fileReport(body)));
      // The server has ended the chat; this page does not wait for its word.
      dispatch(textChatRoom.reported());
    },
    [dispatch, fileReport],
  );
}
