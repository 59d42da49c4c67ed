import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { GroupCategory } from '@parley/contract/groups';
import type { LiveCategory } from '@parley/contract/live';

/**
 * The names of rooms' and streams' categories in the interface language. The API keeps the English
 * value (the filter and the stored room use it); only what a person reads is translated.
 */
const NAMES: Record<GroupCategory | LiveCategory, MessageDescriptor> = {
  Music: msg({ message: 'Music', context: 'category' }),
  Gaming: msg({ message: 'Gaming', context: 'category' }),
  Movies: msg({ message: 'Movies', context: 'category' }),
  Sports: msg({ message: 'Sports', context: 'category' }),
  Tech: msg({ message: 'Tech', context: 'category' }),
  Languages: msg({ message: 'Languages', context: 'category' }),
  'Just chatting': msg({ message: 'Just chatting', context: 'category' }),
  Other: msg({ message: 'Other', context: 'category' }),
  Art: msg({ message: 'Art', context: 'category' }),
  Learning: msg({ message: 'Learning', context: 'category' }),
  Outdoors: msg({ message: 'Outdoors', context: 'category' }),
};

export function categoryName(category: string): string {
  const name = NAMES[category as GroupCategory | LiveCategory];
  return name ? i18n._(name) : category;
}
