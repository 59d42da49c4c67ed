/**
 * State shared by the text and the video chat while a room is held for a dropped connection
 * (lib/resume.ts): reducer helpers each slice applies to its own fields and messages.
 */

export type HeldRoomFlags = { reconnecting: boolean; partnerAway: boolean; partnerTyping: boolean };
export type WaitingMessage = { status: 'sending' | 'sent' | 'delivered' | 'failed'; unsent?: 'connection' };

/** Our socket dropped in a room: the room is kept; what was on its way waits to be sent again. */
export function roomDropped(state: HeldRoomFlags, messages: WaitingMessage[]) {
  state.reconnecting = true;
  state.partnerTyping = false;
  for (const m of messages)
    if (m.status === 'sending') {
      m.status = 'failed';
      m.unsent = 'connection';
    }
}

/** Back on a new connection, the server gave the room back. */
export function roomResumed(state: HeldRoomFlags, partnerAway: boolean) {
  state.reconnecting = false;
  state.partnerAway = partnerAway;
}

/** The partner's connection dropped (away) or came back. */
export function partnerAwayChanged(state: HeldRoomFlags, away: boolean) {
  state.partnerAway = away;
  if (away) state.partnerTyping = false;
}

/** The room is over: what was waiting to be sent again stays not sent. */
export function giveUpWaiting(messages: WaitingMessage[]) {
  for (const m of messages) {
    if (m.status === 'sending') m.status = 'failed';
    delete m.unsent;
  }
}
