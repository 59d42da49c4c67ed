import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { postMessageSchema, quickPostMessage } from './rooms.ts';
import { MESSAGE_MAX_BYTES } from './constants.ts';

const ROOM = '6c5b922d-b3ef-422b-bdcf-0d8356cc8bcd';

/** Strings that sit on the schema's edges: blanks, controls, NUL, bidi marks, long and wide text. */
const edgyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('', ' ', '\t\n', 'hi\u0000', 'a\u0007b', 'tab\tok', 'line\nok', '\u202Eevil', 'é', '👩‍💻', '\u001f', '\u007f'),
  fc.constantFrom('a'.repeat(MESSAGE_MAX_BYTES), '€'.repeat(MESSAGE_MAX_BYTES / 3), '€'.repeat(MESSAGE_MAX_BYTES / 3 + 1)),
);
const edgyRoom = fc.oneof(
  fc.uuid({ version: [1, 2, 3, 4, 5, 6, 7, 8] }),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.constantFrom(
    ROOM,
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    `${ROOM} `,
    ROOM.slice(1),
    'not-a-room',
    '',
  ),
  fc.string(),
  fc.integer(),
);
const edgyClientId = fc.oneof(
  fc.string({ minLength: 0, maxLength: 70 }),
  fc.constantFrom('c\u0000', 'x'.repeat(64), 'x'.repeat(65)),
  fc.integer(),
);
const extra = fc.dictionary(fc.constantFrom('replyTo', 'gif', 'extra', '__proto__', 'constructor', 'text'), fc.anything(), { maxKeys: 2 });

describe('the quick check of a post', () => {
  it('accepts only what the schema accepts, with the same result', () => {
    fc.assert(
      fc.property(
        fc.record({ roomId: edgyRoom, clientId: edgyClientId, text: edgyText }, { requiredKeys: [] }),
        extra,
        fc.boolean(),
        (base, more, withMore) => {
          // JSON, as a payload crosses the wire: an own "__proto__" key stays a key.
          const payload: unknown = JSON.parse(JSON.stringify(withMore ? { ...base, ...more } : base));
          const quick = quickPostMessage(payload);
          if (quick === undefined) return;
          const parsed = postMessageSchema.safeParse(payload);
          expect(parsed.success).toBe(true);
          expect(quick).toEqual(parsed.data);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('takes the usual post, and leaves everything else to the schema', () => {
    fc.assert(
      fc.property(
        fc.uuid({ version: 4 }),
        fc.string({ minLength: 1, maxLength: 64 }).filter((s) => !s.includes('\u0000')),
        fc
          .string({ unit: 'grapheme', minLength: 1, maxLength: 200 })
          .filter((s) => postMessageSchema.safeParse({ roomId: ROOM, clientId: 'c', text: s }).success),
        (roomId, clientId, text) => {
          expect(quickPostMessage({ roomId, clientId, text })).toEqual({ roomId, clientId, text });
        },
      ),
    );
    const usual = { roomId: ROOM, clientId: 'c1', text: 'hello' };
    for (const other of [
      { ...usual, replyTo: 3 },
      { ...usual, text: '' },
      { ...usual, text: '   ' },
      { ...usual, clientId: '' },
      Object.assign(Object.create(null) as object, usual),
      JSON.parse('{"roomId":"6c5b922d-b3ef-422b-bdcf-0d8356cc8bcd","clientId":"c1","text":"hi","__proto__":{"x":1}}') as unknown,
      [usual],
      null,
      'hello',
    ])
      expect(quickPostMessage(other)).toBeUndefined();
  });
});
