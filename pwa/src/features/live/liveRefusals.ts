import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** The live server's refusals by code, in the interface language (its own words are English). */
const REFUSALS: Record<string, MessageDescriptor> = {
  banned: msg`The broadcaster removed you from this stream.`,
  stream_not_found: msg`This stream does not exist or has ended.`,
  stream_ended: msg`This stream has ended.`,
  already_live: msg`You are already live. End that stream before starting another.`,
  own_stream: msg`This is your own stream.`,
  offer_expired: msg`The video did not connect in time. Reload the stream to try again.`,
  gifts_unavailable: msg`Gifts are not available on this server.`,
  gift_to_self: msg`You cannot send a gift to yourself.`,
  not_enough_gold: msg`You do not have enough gold for this yet. Complete quests and chat to earn more.`,
  unavailable: msg`The server is restarting. Try again.`,
  internal: msg`Something went wrong on our side. Please try again.`,
};

/** What a refusal says, in the interface language when its code is known, else as the server said it. */
export function liveRefusal(code: string | undefined, serverMessage: string): string {
  const known = REFUSALS[code ?? ''];
  return known ? i18n._(known) : serverMessage;
}
