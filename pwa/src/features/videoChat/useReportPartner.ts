import { useCallback, useEffect, useRef } from 'react';
import type { RoomMessage } from '@parley/contract/rooms';
import { useAppDispatch } from '../../store/hooks';
import { useAttachReportSnapshotMutation, useFileReportMutation } from '../../store/api';
import { jpegOfStream } from '../../lib/media/snapshot';
import { conversationReport, reportOutcome, type ReportChoice } from '../../realtime/reportEvidence';
import { videoChatRoom } from './videoChatRoom';

/**
 * Reports the video partner: the side chat's signed messages, then a snapshot of the partner's
 * video taken at the moment of the report. Rejects with a readable Error.
 */
export function useReportPartner(remoteStream: MediaStream | null, conversation: { messages: readonly RoomMessage[]; myId: string }) {
  const dispatch = useAppDispatch();
  // Read when sent: the callback stays the same as messages arrive.
  const latest = useRef(conversation);
  useEffect(() => {
    latest.current = conversation;
  }, [conversation]);
  const [fileReport] = useFileReportMutation();
  const [attachSnapshot] = useAttachReportSnapshotMutation();
  return useCallback(
    async (choice: ReportChoice) => {
      // The frame is taken first: by the time the report is written the partner may have left.
      const jpeg = remoteStream ? await jpegOfStream(remoteStream) : null;
      const body = dispatch((_d, getState) => conversationReport(getState().videoChat, latest.current, 'videoChat', choice));
      const { id } = reportOutcome(choice, body && (await fileReport(body)));
      // The server has ended the chat: the call closes now, without waiting for its word.
      dispatch(videoChatRoom.reported());
      if (jpeg) await attachSnapshot({ id, jpeg });
    },
    [dispatch, fileReport, attachSnapshot, remoteStream],
  );
}
