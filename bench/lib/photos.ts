/**
 * Photo-like JPEGs for bench:pictures, made with sharp at the bench's start: broad soft shapes,
 * finer texture and sensor grain (noise alone compresses like no photo does, flat colour far
 * better), with a camera's EXIF (make, model, time, GPS position, orientation).
 */
import sharp from 'sharp';
import { rng } from './stats.ts';

export type Photo = { name: string; bytes: Buffer; width: number; height: number };

/** Random colour blobs at `w`×`h`, enlarged smoothly to the photo's size. */
async function octave(random: () => number, w: number, h: number, width: number, height: number): Promise<Buffer> {
  const small = Buffer.alloc(w * h * 3);
  for (let i = 0; i < small.length; i++) small[i] = Math.floor(random() * 256);
  return sharp(small, { raw: { width: w, height: h, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
}

/**
 * A `width`×`height` photo: three octaves of shapes and `grain` (0–255 amplitude) of noise,
 * encoded at `quality`. `orientation` 6 is a phone held upright (stored sideways, turned by EXIF).
 */
export async function photo(
  name: string,
  o: { width: number; height: number; quality: number; grain: number; seed: number; orientation?: number },
): Promise<Photo> {
  const random = rng(o.seed);
  const { width, height } = o;
  const [broad, mid, fine] = await Promise.all([
    octave(random, Math.ceil(width / 400), Math.ceil(height / 400), width, height),
    octave(random, Math.ceil(width / 60), Math.ceil(height / 60), width, height),
    octave(random, Math.ceil(width / 8), Math.ceil(height / 8), width, height),
  ]);
  const px = Buffer.alloc(width * height * 3);
  for (let i = 0; i < px.length; i++) {
    const v = broad[i]! * 0.6 + mid[i]! * 0.25 + fine[i]! * 0.15 + (random() - 0.5) * o.grain;
    px[i] = v < 0 ? 0 : v > 255 ? 255 : v;
  }
  const bytes = await sharp(px, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: o.quality, chromaSubsampling: '4:2:0' })
    .withExif({
      IFD0: {
        Make: 'Bench',
        Model: 'Phone 12MP',
        DateTime: '2026:11:29 12:00:00',
        Software: 'bench:pictures',
      },
      IFD2: { DateTimeOriginal: '2026:11:29 12:00:00', ExposureTime: '1/120', FNumber: '1.8', ISOSpeedRatings: '100' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 300/100' },
    })
    .withMetadata(o.orientation ? { orientation: o.orientation } : {})
    .toBuffer();
  return { name, bytes, width, height };
}

/** The two photos the bench sends: a detailed 12-megapixel shot, and a typical phone photo of 3–4 MB held upright. */
export async function benchPhotos(): Promise<Photo[]> {
  return Promise.all([
    photo('12mp', { width: 4032, height: 3024, quality: 94, grain: 44, seed: 1 }),
    photo('phone', { width: 4032, height: 3024, quality: 88, grain: 32, seed: 2, orientation: 6 }),
  ]);
}
