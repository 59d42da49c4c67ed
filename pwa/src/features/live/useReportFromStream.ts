import { useCallback } from 'react';
import { useFileReportMutation } from '../../store/api';
import { heldRoomReport, reportOutcome, type ReportChoice } from '../../realtime/reportEvidence';

/** Reports the stream (its broadcaster) or a chat message; the server reads the chat from its own copy. */
export function useReportFromStream(roomId: string) {
  const [fileReport] = useFileReportMutation();
  return useCallback(
    async (userId: string, choice: ReportChoice, messageId?: number) => {
      reportOutcome(choice, await fileReport(heldRoomReport('live', roomId, userId, choice, messageId)));
    },
    [fileReport, roomId],
  );
}
