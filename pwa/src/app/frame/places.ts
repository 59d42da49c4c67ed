import { msg } from '@lingui/core/macro';

/** The app's five places, in tab order: the bottom tabs on a phone, the sidebar on a wider screen. */
export const PLACES = [
  { id: 'home', label: msg`Home`, to: '/dashboard', icon: 'M3 11l9-7 9 7v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z' },
  { id: 'chat', label: msg`Chat`, to: '/textchat', icon: 'M4 5h16v10H8l-4 4z' },
  {
    id: 'rooms',
    label: msg`Rooms`,
    to: '/groupchat',
    icon: 'M7 8h10M7 12h6M5 4h14a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2h-6l-5 4v-4H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z',
  },
  { id: 'live', label: msg`Live`, to: '/livestream', icon: 'M3 7h12v10H3zM15 10l6-3v10l-6-3' },
  { id: 'messages', label: msg`Messages`, to: '/messages', icon: 'M3 6h18v12H3zM3 6l9 7 9-7' },
] as const;

export type PlaceId = (typeof PLACES)[number]['id'];

/** The place a path belongs to (the video chat is part of Chat), or null. */
export function placeOf(pathname: string): PlaceId | null {
  if (pathname === '/dashboard') return 'home';
  if (pathname === '/textchat' || pathname === '/videochat') return 'chat';
  if (pathname === '/groupchat' || pathname.startsWith('/groupchat/')) return 'rooms';
  if (pathname === '/livestream' || pathname.startsWith('/livestream/')) return 'live';
  if (pathname === '/messages' || pathname.startsWith('/messages/')) return 'messages';
  return null;
}

/** Pages that open full screen, the frame collapsed: the 1:1 chats. */
export const IMMERSIVE_PATHS = ['/textchat', '/videochat'];
