import { describe, expect, it } from 'vitest';
import type { AppNotification } from '@parley/contract/notifications';
import { toastFor } from './noticeToast';

const n = (over: Partial<AppNotification> = {}): AppNotification => ({
  notificationId: '1',
  kind: 'directMessage',
  text: 'ana: hi',
  link: '/messages/ana',
  read: false,
  count: 1,
  createdAt: new Date(0).toISOString(),
  ...over,
});

describe('toastFor', () => {
  it('toasts messages, friend requests, mentions and going live, on another page', () => {
    for (const kind of ['directMessage', 'friendRequest', 'mention', 'wentLive'] as const)
      expect(toastFor(n({ kind }), '/dashboard')?.link, kind).toBe('/messages/ana');
  });

  it('not the other kinds, nor one already read', () => {
    for (const kind of ['friendAccepted', 'levelUp', 'missionReminder', 'moderation', 'supportReply', 'signIn'] as const)
      expect(toastFor(n({ kind }), '/dashboard'), kind).toBeNull();
    expect(toastFor(n({ read: true }), '/dashboard')).toBeNull();
  });

  it('not for the conversation on screen, however its path is written', () => {
    expect(toastFor(n(), '/messages/ana')).toBeNull();
    expect(toastFor(n(), '/messages/Ana/')).toBeNull();
    expect(toastFor(n({ link: '/messages/J%C3%BCrgen' }), '/messages/Jürgen')).toBeNull();
    expect(toastFor(n(), '/messages/ben')).not.toBeNull();
  });

  it('refuses links out of the app and malformed payloads', () => {
    for (const link of ['https://evil.example/', '//evil.example', '/\\evil', 'javascript:alert(1)'])
      expect(toastFor(n({ link }), '/dashboard'), link).toBeNull();
    expect(toastFor(null, '/dashboard')).toBeNull();
    expect(toastFor({ kind: 'directMessage' }, '/dashboard')).toBeNull();
  });
});
