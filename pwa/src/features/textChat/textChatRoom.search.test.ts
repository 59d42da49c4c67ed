import { describe, expect, it, vi } from 'vitest';
import { chatEvents } from '@parley/contract/matchmaking';
import { getSocketStatus } from '../../realtime/socket';
import { changeAutomaticReconnect } from '../../realtime/roomConnection';
import { searchPreferencesActions } from '../../realtime/searchPreferences';
import { setup, setUpTextChat } from './textChatTest';
import { i18n } from '@lingui/core';

// The messages in English: the interface language the tests read.
i18n.loadAndActivate({ locale: 'en', messages: {} });

// The text chat's search: Start with the saved preferences, answers to the search under way only, Next, Stop, leaving, refusals.
const c = setUpTextChat();

describe('text chat: searching, skipping and stopping', () => {
  it('starts a search with the saved filters and enters the room the server sets up', async () => {
    c.store.dispatch(
      searchPreferencesActions.setChatFilters({ topics: ['Chess  Club'], gender: 'female', ageRange: { minAge: 20, maxAge: 40 } }),
    );
    c.store.dispatch(searchPreferencesActions.setAutomaticReconnect(true));
    c.store.dispatch(c.room.startSearch(c.notify));
    expect(c.store.getState().chat.isSearching).toBe(true);
    expect(await c.nextEvent(chatEvents.start)).toEqual({
      roomType: 'textChat',
      filters: { topics: ['chess club'], gender: 'female', ageRange: { minAge: 20, maxAge: 40 } },
      automaticReconnect: true,
      searchId: expect.any(String),
    });
    c.server.emit(chatEvents.matched, { ...setup, noCommonTopic: true });
    await vi.waitFor(() => expect(c.store.getState().chat.roomId).toBe('room-1'));
    const chat = c.store.getState().chat;
    expect(chat).toMatchObject({ isSearching: false, receiver: setup.receiver, noCommonTopic: true, isPeerDisconnected: false });
    expect(chat.encounteredUser).toEqual([setup.receiver]);
  });

  it('hears how the search under way stands, not an older search nor another kind', async () => {
    c.store.dispatch(c.room.startSearch(c.notify));
    const { searchId } = (await c.nextEvent(chatEvents.start)) as { searchId: string };
    c.server.emit(chatEvents.searchStatus, { roomType: 'textChat', searchId: 'older', online: 9, searching: 9, fitting: 9 });
    c.server.emit(chatEvents.searchStatus, { roomType: 'videoChat', searchId, online: 8, searching: 8, fitting: 8 });
    c.server.emit(chatEvents.searchStatus, { roomType: 'textChat', searchId, online: 4, searching: 1, fitting: 0 });
    await vi.waitFor(() => expect(c.store.getState().chat.searchStatus).toEqual({ online: 4, searching: 1, fitting: 0 }));
  });

  it('meets the recent partner again on request: the new search names them, keeps the conversation and how the search stood', async () => {
    await c.matched();
    c.server.emit(chatEvents.partnerLeft, { roomId: 'room-1', reason: 'skip' });
    await vi.waitFor(() => expect(c.store.getState().chat.isPeerDisconnected).toBe(true));
    c.store.dispatch(c.room.startSearch(c.notify, { keepConversation: true }));
    const first = (await c.nextEvent(chatEvents.start)) as { searchId: string; meetAgain?: unknown };
    // An ordinary search asks nothing of the kind.
    expect(first).not.toHaveProperty('meetAgain');
    c.server.emit(chatEvents.searchStatus, { roomType: 'textChat', searchId: first.searchId, online: 2, searching: 1, fitting: 1 });
    await vi.waitFor(() => expect(c.store.getState().chat.searchStatus).not.toBeNull());

    c.store.dispatch(c.room.startSearch(c.notify, { keepConversation: true, meetAgain: true }));
    const again = (await c.nextEvent(chatEvents.start)) as { searchId: string; meetAgain?: unknown };
    expect(again.meetAgain).toEqual([setup.receiver.userId]);
    expect(again.searchId).not.toBe(first.searchId);
    expect(c.store.getState().chat).toMatchObject({
      isSearching: true,
      meetAgainAsked: true,
      conversationRoomId: 'room-1',
      searchStatus: { online: 2, searching: 1, fitting: 1 },
    });
    // Met: the wish is spent.
    c.server.emit(chatEvents.matched, { ...setup, roomId: 'room-2', searchId: again.searchId });
    await vi.waitFor(() => expect(c.store.getState().chat.roomId).toBe('room-2'));
    expect(c.store.getState().chat.meetAgainAsked).toBe(false);
    expect(c.store.getState().chat.recentPartners).toEqual([setup.receiver.userId]);
  });

  it('ignores a room set up for video chat and malformed payloads', async () => {
    c.server.emit(chatEvents.matched, { ...setup, roomType: 'videoChat' });
    c.server.emit(chatEvents.matched, { roomId: 7 });
    await new Promise((r) => setTimeout(r, 50));
    expect(c.store.getState().chat.roomId).toBeNull();
    expect(console.error).toHaveBeenCalled();
  });

  it('shows that the stranger disconnected and keeps the conversation readable', async () => {
    await c.matched();
    c.server.emit(chatEvents.partnerLeft, { roomId: 'other-room', reason: 'skip' });
    c.server.emit(chatEvents.partnerLeft, { roomId: 'room-1', reason: 'skip' });
    await vi.waitFor(() => expect(c.store.getState().chat.isPeerDisconnected).toBe(true));
    expect(c.store.getState().chat.roomId).toBeNull();
    // The conversation stays readable: its room is still the one shown.
    expect(c.store.getState().chat.conversationRoomId).toBe('room-1');
    // Automatic reconnect: the server puts us back in the queue.
    c.server.emit(chatEvents.searching, { roomType: 'textChat', requeued: true });
    await vi.waitFor(() => expect(c.store.getState().chat).toMatchObject({ isSearching: true, isRequeuing: true }));
  });

  it('Next in a room asks the server to skip and waits for the next match', async () => {
    await c.matched();
    c.store.dispatch(c.room.next(c.notify));
    await c.nextEvent(chatEvents.next);
    expect(c.store.getState().chat).toMatchObject({ isSearching: true, roomId: null, receiver: null, conversationRoomId: null });
    expect(c.received.some(([n]) => n === chatEvents.start)).toBe(false);
  });

  it('stop cancels the search; leaving the page ends the chat', async () => {
    c.store.dispatch(c.room.startSearch(c.notify));
    await c.nextEvent(chatEvents.start);
    c.store.dispatch(c.room.stopSearch());
    await c.nextEvent(chatEvents.stop);
    expect(c.store.getState().chat.isSearching).toBe(false);
    await c.matched();
    c.store.dispatch(c.room.leave({ forget: true }));
    await c.nextEvent(chatEvents.stop);
    // The user left: coming back shows a clean page, not "Stranger has disconnected".
    expect(c.store.getState().chat).toMatchObject({
      roomId: null,
      receiver: null,
      conversationRoomId: null,
      isPeerDisconnected: false,
      isSearching: false,
    });
  });

  it('ignores a match or a searching state that crossed a Stop on the way', async () => {
    c.store.dispatch(c.room.startSearch(c.notify));
    await c.nextEvent(chatEvents.start);
    c.store.dispatch(c.room.stopSearch());
    // Sent by the server before it read the Stop (it ends that room when it does).
    c.server.emit(chatEvents.searching, { roomType: 'textChat', requeued: false });
    c.server.emit(chatEvents.matched, setup);
    await new Promise((r) => setTimeout(r, 100));
    expect(c.store.getState().chat).toMatchObject({ roomId: null, isSearching: false, receiver: null });
    // The next Start takes matches again.
    await c.matched();
  });

  it('after Stop and a new Start within one round trip, only the new search is answered', async () => {
    c.store.dispatch(c.room.startSearch(c.notify));
    const first = ((await c.nextEvent(chatEvents.start)) as { searchId: string }).searchId;
    c.store.dispatch(c.room.stopSearch());
    c.store.dispatch(c.room.startSearch(c.notify));
    const second = ((await c.nextEvent(chatEvents.start)) as { searchId: string }).searchId;
    expect(second).not.toBe(first);
    // The first search's match and refusal, sent before the server read the Stop, change nothing.
    c.server.emit(chatEvents.matched, { ...setup, roomId: 'stale', searchId: first });
    c.server.emit(chatEvents.error, {
      event: chatEvents.start,
      message: 'Too many searches in a row.',
      code: 'rate_limited',
      searchId: first,
    });
    await vi.waitFor(() => expect(c.notices).toHaveLength(1));
    expect(c.store.getState().chat).toMatchObject({ roomId: null, isSearching: true });
    c.server.emit(chatEvents.matched, { ...setup, searchId: second });
    await vi.waitFor(() => expect(c.store.getState().chat.roomId).toBe('room-1'));
  });

  it('Next names its search too: a requeue answering the skipped chat does not replace it', async () => {
    await c.matched();
    c.store.dispatch(c.room.next(c.notify));
    const { searchId } = (await c.nextEvent(chatEvents.next)) as { searchId: string };
    c.server.emit(chatEvents.matched, { ...setup, roomId: 'stale', searchId: 'an-older-search' });
    c.server.emit(chatEvents.matched, { ...setup, roomId: 'room-2', searchId });
    await vi.waitFor(() => expect(c.store.getState().chat.roomId).toBe('room-2'));
  });

  it('sends the automatic reconnect switch to the server as well as saving it', async () => {
    c.store.dispatch(changeAutomaticReconnect(true));
    expect(c.store.getState().searchPreferences.automaticReconnect).toBe(true);
    expect(await c.nextEvent(chatEvents.settings)).toEqual({ automaticReconnect: true });
  });

  it('once reconnection gave up, a Start says so and offers Reconnect', async () => {
    c.io.close();
    c.httpServer.closeAllConnections();
    await vi.waitFor(() => expect(getSocketStatus()).toBe('failed'), { timeout: 5000 });
    c.store.dispatch(c.room.startSearch(c.notify));
    expect(c.notices[0]).toMatchObject({ title: 'You are offline', action: { label: 'Reconnect' } });
    expect(c.store.getState().chat.isSearching).toBe(false);
  });

  it('turns a server error into a notice and clears a refused search', async () => {
    c.store.dispatch(c.room.startSearch(c.notify));
    await c.nextEvent(chatEvents.start);
    c.server.emit(chatEvents.error, {
      event: chatEvents.start,
      message: 'Too many searches in a row. Wait a moment and try again.',
      code: 'rate_limited',
    });
    await vi.waitFor(() => expect(c.notices).toHaveLength(1));
    expect(c.notices[0]).toEqual({ title: 'Slow down', description: 'Too many searches in a row. Wait a moment and try again.' });
    expect(c.store.getState().chat.isSearching).toBe(false);
  });
});
