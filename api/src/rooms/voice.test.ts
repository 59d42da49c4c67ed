import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_ERR } from '@parley/contract/attachments';
import { checkVoice } from './voice.ts';
import { oggVoice, webmVoice } from '../testing/voiceFiles.ts';

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return { message: (e as Error).message, code: (e as { code?: string }).code };
  }
  return null;
};

describe('voice message check', () => {
  it('accepts Opus in a live WebM (unknown sizes, no declared duration) and measures it by its blocks', () => {
    expect(checkVoice(webmVoice(7))).toEqual({ mime: 'audio/webm', durationMs: 7000 });
    expect(checkVoice(webmVoice(119))).toEqual({ mime: 'audio/webm', durationMs: 119_000 });
  });

  it('accepts Opus in Ogg, its length from the last granule position less the pre-skip', () => {
    expect(checkVoice(oggVoice(5))).toEqual({ mime: 'audio/ogg', durationMs: 5000 });
  });

  it('refuses recordings over two minutes, whichever the container', () => {
    expect(refusal(() => checkVoice(webmVoice(125)))).toEqual({ message: ATTACHMENT_ERR.voiceTooLong, code: 'voice_too_long' });
    expect(refusal(() => checkVoice(oggVoice(130)))).toEqual({ message: ATTACHMENT_ERR.voiceTooLong, code: 'voice_too_long' });
  });

  it('refuses another codec, a video track, and a picture or text renamed to .webm', async () => {
    const notVoice = { message: ATTACHMENT_ERR.notVoice, code: 'not_voice' };
    expect(refusal(() => checkVoice(webmVoice(3, 'A_VORBIS')))).toEqual(notVoice);
    expect(refusal(() => checkVoice(webmVoice(3, 'V_VP8', 1)))).toEqual(notVoice);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    expect(refusal(() => checkVoice(png))).toEqual(notVoice);
    expect(refusal(() => checkVoice(Buffer.from('<html><script>alert(1)</script></html>')))).toEqual(notVoice);
  });

  it('refuses a recording with anything after it, or cut short, or with a page altered', () => {
    const notVoice = { message: ATTACHMENT_ERR.notVoice, code: 'not_voice' };
    expect(refusal(() => checkVoice(Buffer.concat([webmVoice(2), Buffer.from('PK\x03\x04 zip after it')])))).toEqual(notVoice);
    const ogg = oggVoice(3);
    expect(refusal(() => checkVoice(ogg.subarray(0, ogg.length - 10)))).toEqual(notVoice);
    const altered = Buffer.from(ogg);
    altered.writeUInt8(altered[altered.length - 5]! ^ 0xff, altered.length - 5);
    expect(refusal(() => checkVoice(altered))).toEqual(notVoice);
    expect(refusal(() => checkVoice(Buffer.concat([ogg, Buffer.from('<svg onload=alert(1)>')])))).toEqual(notVoice);
  });
});
