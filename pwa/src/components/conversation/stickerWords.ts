import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { MessageMedia } from '@parley/contract/media';

/** The shipped packs' and stickers' names in the interface language (the contract has them in English). */
const WORDS: Record<string, MessageDescriptor> = {
  hello: msg`Hello`,
  party: msg`Party`,
  'hello/wave': msg`Waving hand`,
  'hello/heart': msg`Beating heart`,
  'hello/star': msg`Spinning star`,
  'party/balloon': msg`Bobbing balloon`,
  'party/confetti': msg`Falling confetti`,
  'party/cake': msg`Birthday cake`,
};

/** A pack's or a sticker's name by id; the server's words for one this page does not know. */
export const stickerWord = (i18n: I18n, id: string, fallback: string) => (WORDS[id] ? i18n._(WORDS[id]) : fallback);

/** What a sticker or GIF is called for a screen reader: a sticker by its name, a GIF by its library's tags. */
export const mediaAlt = (i18n: I18n, m: Pick<MessageMedia, 'kind' | 'id' | 'alt'>) =>
  m.kind === 'sticker' ? i18n._(msg`Sticker: ${stickerWord(i18n, m.id, m.alt)}`) : i18n._(msg`GIF: ${m.alt}`);
