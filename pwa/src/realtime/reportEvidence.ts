import {
  MAX_EVIDENCE_MESSAGES,
  type EvidenceMessage,
  type ReportAnswer,
  type ReportBody,
  type ReportReason,
} from '@parley/contract/safety';
import { describeApiError } from '../lib/apiError';
import { toast } from '../lib/toast';
import type { RoomMessage } from '@parley/contract/rooms';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** What the person reporting chose in the dialog. */
export type ReportChoice = { reason: ReportReason; note: string; block: boolean };

/**
 * The conversation's last messages as this page saw them (as last edited), each under the server's
 * id with its receipt: the server checks every one, so only messages it signed go into a report.
 */
export function evidenceOf(messages: readonly RoomMessage[], myId: string): EvidenceMessage[] {
  return messages
    .filter((m): m is RoomMessage & { receipt: string } => Boolean(m.receipt) && !m.deleted)
    .slice(-MAX_EVIDENCE_MESSAGES)
    .map((m) => ({
      id: String(m.id),
      from: m.senderId === myId ? 'me' : 'them',
      text: m.text,
      sentAt: m.sentAt,
      receipt: m.receipt,
      // A picture's receipt names it: the report keeps that picture for the moderators.
      ...(m.attachment && { attachmentId: m.attachment.id }),
    }));
}

/** A report of a 1:1 conversation's partner, with its evidence (the chat's messages, ours told apart by `myId`). */
export function conversationReport(
  room: { conversationRoomId: string | null; receiver: { userId: string } | null },
  conversation: { messages: readonly RoomMessage[]; myId: string },
  context: 'textChat' | 'videoChat',
  choice: ReportChoice,
): ReportBody | null {
  if (!room.receiver) return null;
  return {
    reportedUserId: room.receiver.userId,
    context,
    ...(room.conversationRoomId ? { roomId: room.conversationRoomId } : {}),
    reason: choice.reason,
    ...(choice.note.trim() ? { note: choice.note.trim() } : {}),
    block: choice.block,
    messages: room.conversationRoomId ? evidenceOf(conversation.messages, conversation.myId) : [],
  };
}

/**
 * A report from a group room, a direct conversation or a live chat: of a message (its id), or of
 * the person or stream. The server reads the messages from its own copy, so none are sent.
 */
export function heldRoomReport(
  context: 'group' | 'direct' | 'live',
  roomId: string,
  reportedUserId: string,
  choice: ReportChoice,
  messageId?: number | string,
): ReportBody {
  return {
    reportedUserId,
    context,
    roomId,
    ...(messageId !== undefined ? { messageId } : {}),
    reason: choice.reason,
    ...(choice.note.trim() ? { note: choice.note.trim() } : {}),
    block: choice.block,
  };
}

/**
 * What a sent report comes to: its answer, after thanking the reporter; a readable Error when
 * there was nobody to report or the server refused.
 */
export function reportOutcome(choice: ReportChoice, result: { data?: ReportAnswer; error?: unknown } | null): ReportAnswer {
  if (!result) throw new Error(i18n._(msg`There is no one to report here any more.`));
  if (!result.data) throw new Error(describeApiError(result.error, i18n._(msg`The report could not be sent. Please try again.`)));
  toast({
    title: i18n._(msg`Report sent`),
    description: choice.block
      ? i18n._(msg`Thank you. Our team will review it, and you will not be matched again.`)
      : i18n._(msg`Thank you. Our team will review it.`),
  });
  return result.data;
}
