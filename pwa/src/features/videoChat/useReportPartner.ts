import { useCallback } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { useAttachReportSnapshotMutation, useFileReportMutation } from '../../app/api';
import { jpegOfStream } from '../../lib/media/snapshot';
import { conversationReport, reportOutcome, type ReportChoice } from '../../realtime/reportEvidence';
import { videoChatRoom } from './videoChatRoom';

/**
 * Reports the video partner: the side chat's verified messages, then a snapshot of the partner's
 * video taken at the moment of the report. Rejects with a readable Error.
 */
export function useReportPartner(remoteStream: MediaStream | null) {
  const dispatch = useAppDispatch();
  const [fileReport] = useFileReportMutation();
  const [attachSnapshot] = useAttachReportSnapshotMutation();
  return useCallback(
    async (choice: ReportChoice) => {
      // The frame is taken first: by the time the report is written the partner may have left.
      const jpeg = remoteStream ? await jpegOfStream(remoteStream) : null;
      const body = dispatch((_d, getState) => conversationReport(getState().videoChat, 'videoChat', choice));
      const { id } = reportOutcome(choice, body && (await fileReport(body)));
      // The server has ended the chat: the call closes now, without waiting for its word.
      dispatch(videoChatRoom.reported());
      if (jpeg) await attachSnapshot({ id, jpeg });
    },
    [dispatch, fileReport, attachSnapshot, remoteStream],
  );
}
