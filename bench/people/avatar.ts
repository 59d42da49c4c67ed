import { avatarVariants } from '../../api/src/people/images.ts';
import { jpegWithGps } from '../../api/src/testing/people.ts';
import { summarize, type Summary } from '../lib/stats.ts';

export type AvatarResult = {
  input: { width: number; height: number; bytes: number };
  runs: number;
  ms: Summary;
  goalP50Ms: number;
  met: boolean;
};

/** A 4000×3000 JPEG (with EXIF and GPS) to both avatar sizes, as the upload route does it, `runs` times after two warm-ups. */
export async function benchAvatar(runs: number): Promise<AvatarResult> {
  const photo = await jpegWithGps(4000, 3000);
  for (let i = 0; i < 2; i++) await avatarVariants(photo);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await avatarVariants(photo);
    samples.push(performance.now() - t);
  }
  const ms = summarize(samples);
  return { input: { width: 4000, height: 3000, bytes: photo.length }, runs, ms, goalP50Ms: 300, met: ms.p50 < 300 };
}
