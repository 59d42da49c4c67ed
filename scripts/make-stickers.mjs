// Draws the sticker packs Parley ships (public/stickers/<pack>/<sticker>.webp): small animated
// WebP files made from SVG frames with sharp. Run again only to change them: `node scripts/make-stickers.mjs`.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

const PX = 160;
const FRAMES = 8;
const out = path.resolve(import.meta.dirname, '../public/stickers');

/** Each sticker: one SVG body per frame, `f` from 0 to 1 around the loop. */
const STICKERS = {
  'hello/wave': (f) =>
    `<g transform="rotate(${Math.sin(f * 2 * Math.PI) * 20} 80 130)"><rect x="58" y="40" width="44" height="90" rx="22" fill="#f6c26b"/>` +
    `<rect x="42" y="60" width="16" height="40" rx="8" fill="#f6c26b"/></g>`,
  'hello/heart': (f) => {
    const s = 1 + 0.15 * Math.abs(Math.sin(f * 2 * Math.PI));
    return `<g transform="translate(80 85) scale(${s}) translate(-80 -85)"><path d="M80 130 L30 80 A25 25 0 0 1 80 45 A25 25 0 0 1 130 80 Z" fill="#e5484d"/></g>`;
  },
  'hello/star': (f) =>
    `<g transform="rotate(${f * 72} 80 80)"><polygon points="80,20 96,62 140,62 104,88 118,132 80,106 42,132 56,88 20,62 64,62" fill="#f5b400"/></g>`,
  'party/balloon': (f) => {
    const y = Math.sin(f * 2 * Math.PI) * 8;
    return `<g transform="translate(0 ${y})"><ellipse cx="80" cy="65" rx="35" ry="42" fill="#7c66dc"/><path d="M80 107 Q70 130 85 150" stroke="#444" fill="none" stroke-width="3"/></g>`;
  },
  'party/confetti': (f) =>
    [0, 1, 2, 3, 4, 5]
      .map((i) => {
        const y = ((f + i / 6) % 1) * 150;
        const colours = ['#e5484d', '#30a46c', '#0090ff', '#f5b400', '#7c66dc', '#ff8b3e'];
        return `<rect x="${15 + i * 24}" y="${y}" width="12" height="8" fill="${colours[i]}" transform="rotate(${f * 360 + i * 40} ${21 + i * 24} ${y + 4})"/>`;
      })
      .join(''),
  'party/cake': (f) =>
    `<rect x="30" y="80" width="100" height="55" rx="8" fill="#f2a7c3"/><rect x="30" y="95" width="100" height="8" fill="#fff"/>` +
    `<rect x="76" y="50" width="8" height="30" fill="#0090ff"/><ellipse cx="80" cy="${44 - Math.abs(Math.sin(f * 2 * Math.PI)) * 4}" rx="5" ry="9" fill="#ff8b3e"/>`,
};

for (const [id, draw] of Object.entries(STICKERS)) {
  const frames = await Promise.all(
    Array.from({ length: FRAMES }, (_, i) =>
      sharp(
        Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${PX}" height="${PX}" viewBox="0 0 160 160">${draw(i / FRAMES)}</svg>`),
      )
        .png()
        .toBuffer(),
    ),
  );
  const file = path.join(out, `${id}.webp`);
  await mkdir(path.dirname(file), { recursive: true });
  const webp = await sharp(frames, { join: { animated: true } })
    .webp({ quality: 70, effort: 6, loop: 0, delay: Array(FRAMES).fill(90) })
    .toBuffer();
  await writeFile(file, webp);
  console.log(`${id}.webp ${webp.length} bytes`);
}
