import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { avatarVariants } from './images.ts';

/** The RGB of one pixel of a WebP. */
async function pixel(webp: Buffer, x: number, y: number) {
  const { data, info } = await sharp(webp).raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

describe('avatar variants', () => {
  it('turn a photo upright by its EXIF orientation before cropping it square at both sizes', async () => {
    // 600×300, red left and blue right, stored sideways: orientation 6 shows it turned a quarter
    // clockwise, 300×600 with red on top and blue below.
    const half = (r: number, b: number) => ({ create: { width: 300, height: 300, channels: 3 as const, background: { r, g: 0, b } } });
    const photo = await sharp({ create: { width: 600, height: 300, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .composite([
        { input: await sharp(half(255, 0)).png().toBuffer(), left: 0, top: 0 },
        { input: await sharp(half(0, 255)).png().toBuffer(), left: 300, top: 0 },
      ])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const variants = await avatarVariants(photo);
    for (const [size, webp] of [
      [256, variants['256']],
      [64, variants['64']],
    ] as const) {
      const meta = await sharp(webp).metadata();
      expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['webp', size, size, undefined]);
      const [top, bottom] = [await pixel(webp, size / 2, 2), await pixel(webp, size / 2, size - 3)];
      expect(top[0]).toBeGreaterThan(200);
      expect(top[2]).toBeLessThan(60);
      expect(bottom[2]).toBeGreaterThan(200);
      expect(bottom[0]).toBeLessThan(60);
    }
  });
});
