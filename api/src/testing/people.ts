import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { insertAccount, tokenUserOf, type Account, type NewAccount } from '../db/accounts.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { TestServer } from './server.ts';

export type Member = Account & {
  token: string;
  auth: { authorization: string };
  call(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
};

/** A signed-in account of the test server (inserted directly; `password` hashes one for it). */
export async function member(server: TestServer, over: Partial<NewAccount> & { password?: string } = {}): Promise<Member> {
  const { password, ...fields } = over;
  const account = await insertAccount(server.deps.db, {
    username: `m${randomUUID().slice(0, 10)}`,
    age: 25,
    gender: 'female',
    isVerified: true,
    ...(password ? { passwordHash: await hashPassword(password) } : {}),
    ...fields,
  });
  const token = await server.deps.tokens.sign(tokenUserOf(account));
  const auth = { authorization: `Bearer ${token}` };
  return {
    ...account,
    token,
    auth,
    call: (path, init = {}) => server.api(path, { ...init, headers: { ...auth, ...(init.headers as Record<string, string> | undefined) } }),
  };
}

/** A real photo-like JPEG with EXIF and GPS tags, for upload tests and the avatar bench. */
export async function jpegWithGps(width = 800, height = 600): Promise<Buffer> {
  const noise = Buffer.alloc(width * height * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919 + ((i / width) | 0) * 31) & 0xff;
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .withExifMerge({
      IFD0: { Make: 'TestCam', Model: 'Parley 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 3/1' },
    })
    .toBuffer();
}
