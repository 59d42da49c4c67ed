import { describe, expect, it } from 'vitest';
import { placeOf } from './places';

describe('the place a page belongs to', () => {
  it('marks the tab of each area, the video chat under Chat, and nothing for other pages', () => {
    expect(placeOf('/dashboard')).toBe('home');
    expect(placeOf('/textchat')).toBe('chat');
    expect(placeOf('/videochat')).toBe('chat');
    expect(placeOf('/groupchat')).toBe('rooms');
    expect(placeOf('/groupchat/room-1')).toBe('rooms');
    expect(placeOf('/livestream/abc')).toBe('live');
    expect(placeOf('/messages/bob')).toBe('messages');
    expect(placeOf('/settingboard')).toBeNull();
    expect(placeOf('/groupchatter')).toBeNull();
  });
});
