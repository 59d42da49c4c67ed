import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { DESCRIPTION_MAX, HOBBIES_MAX, type OwnProfile, type UserProfile } from '@parley/contract/people';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { jpegWithGps, member, type Member } from '../testing/people.ts';
import { NOT_AN_IMAGE } from './images.ts';
import { IMAGE_TOO_LARGE } from './upload.ts';
import { USER_NOT_FOUND } from './profiles.ts';

describe('profiles', () => {
  let server: TestServer;
  let ana: Member;
  let bob: Member;
  beforeAll(async () => {
    server = await startTestServer();
    ana = await member(server, { age: 31 });
    bob = await member(server);
  });
  afterAll(() => server.close());

  const patch = (m: Member, json: unknown) => m.call('/api/profile', { method: 'PATCH', json });

  it('answers 401 without a token on every profile route', async () => {
    for (const [method, path] of [
      ['GET', '/api/profile'],
      ['PATCH', '/api/profile'],
      ['PUT', '/api/profile/avatar'],
      ['POST', '/api/auth/password'],
      ['PUT', '/api/profile/background'],
      ['GET', `/api/users/${ana.username}`],
      ['POST', '/api/backgrounds'],
    ]) {
      const res = await server.api(path!, { method: method! });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it('stores a valid profile change and answers the whole profile', async () => {
    const res = await patch(ana, {
      description: 'Climbs, cooks.\nReads.',
      hobbies: ['climbing', 'cooking'],
      country: 'FR',
      gender: 'other',
    });
    expect(res.status).toBe(200);
    const p = (await res.json()) as OwnProfile;
    expect(p).toMatchObject({
      username: ana.username,
      description: 'Climbs, cooks.\nReads.',
      hobbies: ['climbing', 'cooking'],
      country: 'FR',
      gender: 'other',
      age: 31,
    });
  });

  it.each([
    [{ description: 'x'.repeat(DESCRIPTION_MAX + 1) }, `Description must be at most ${DESCRIPTION_MAX} characters`],
    [{ hobbies: Array.from({ length: HOBBIES_MAX + 1 }, (_, i) => `h${i}`) }, `At most ${HOBBIES_MAX} hobbies`],
    [{ hobbies: ['chess', 'Chess'] }, 'Each hobby once'],
    [{ hobbies: ['a\u202Eb'] }, 'A hobby cannot contain control or invisible characters'],
    [{ country: 'XX' }, 'Choose a country from the list'],
    [{ gender: 'robot' }, 'Gender must be male, female or other'],
    [{ username: 'rename' }, undefined],
    [{ description: 'bad\u0000' }, 'Text cannot contain NUL characters'],
  ])('refuses %j with a 400 that says why', async (body, message) => {
    const res = await patch(ana, body);
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { message: string; code: string };
    expect(answer.code).toMatch(/validation_failed|nul_refused/);
    if (message) expect(answer.message).toContain(message);
  });

  it("never sends a user's private fields to someone who is not their friend", async () => {
    expect(
      (
        await patch(bob, {
          description: 'secret bio',
          hobbies: ['spying'],
          country: 'DE',
          privateFields: ['age', 'description', 'hobbies', 'country'],
        })
      ).status,
    ).toBe(200);
    const res = await ana.call(`/api/users/${bob.username}`);
    expect(res.status).toBe(200);
    const raw = await res.text();
    const card = JSON.parse(raw) as UserProfile;
    expect(card).toMatchObject({ userId: bob.id, username: bob.username, gender: 'female', relation: 'none', limited: false });
    for (const field of ['age', 'description', 'hobbies', 'country', 'friendsList']) expect(card).not.toHaveProperty(field);
    expect(raw).not.toContain('secret bio');
    expect(raw).not.toContain('spying');
    expect(raw).not.toContain('passwordHash');
  });

  it('shows only a limited card when the profile is for friends only', async () => {
    const carl = await member(server);
    await carl.call('/api/settings', {
      method: 'PATCH',
      json: { privacy: { profileVisibleTo: 'friends', friendRequestsFrom: 'everyone' } },
    });
    await carl.call('/api/profile', { method: 'PATCH', json: { description: 'only for friends' } });
    const card = (await (await ana.call(`/api/users/${carl.username}`)).json()) as UserProfile;
    expect(card.limited).toBe(true);
    expect(card).not.toHaveProperty('description');
    expect(card).not.toHaveProperty('gender');
    expect(card.rating).toEqual({ up: 0, down: 0 });
  });

  it('answers a proper 404 for an unknown username, and 400 for one that cannot exist', async () => {
    const res = await ana.call('/api/users/nobody_here_123');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: USER_NOT_FOUND, code: 'user_not_found' });
    expect((await ana.call('/api/users/%3Cscript%3E')).status).toBe(400);
  });

  it('hides the profile of someone who blocked the viewer', async () => {
    const dora = await member(server);
    expect((await dora.call('/api/settings/blocks', { method: 'POST', json: { username: ana.username } })).status).toBe(204);
    expect((await ana.call(`/api/users/${dora.username}`)).status).toBe(404);
    // The blocker still sees the card, marked blocked, so they can unblock.
    expect(((await (await dora.call(`/api/users/${ana.username}`)).json()) as UserProfile).relation).toBe('blocked');
  });

  describe('avatar upload', () => {
    const upload = (m: Member, body: Buffer | Uint8Array, type = 'image/jpeg') =>
      m.call('/api/profile/avatar', { method: 'PUT', body, headers: { 'content-type': type } });

    it('resizes a real photo to 256 and 64 px WebP without EXIF or GPS, served to anyone', async () => {
      const photo = await jpegWithGps(1200, 900);
      expect((await sharp(photo).metadata()).exif).toBeDefined();
      const res = await upload(ana, photo);
      expect(res.status).toBe(200);
      const { avatar } = (await res.json()) as OwnProfile;
      expect(avatar).toMatch(/^\/api\/images\/[0-9a-f-]{36}-256\.webp$/);
      for (const [url, px] of [
        [avatar, 256],
        [avatar.replace('-256', '-64'), 64],
      ] as const) {
        const img = await server.api(url);
        expect(img.status).toBe(200);
        expect(img.headers.get('content-type')).toBe('image/webp');
        const meta = await sharp(Buffer.from(await img.arrayBuffer())).metadata();
        expect(meta).toMatchObject({ format: 'webp', width: px, height: px });
        expect(meta.exif).toBeUndefined();
        expect(meta.icc).toBeUndefined();
      }
      // Strangers see the new avatar on the card.
      expect(((await (await bob.call(`/api/users/${ana.username}`)).json()) as UserProfile).avatar).toBe(avatar);
    });

    it.each([
      [
        'image/png',
        () =>
          sharp({ create: { width: 300, height: 200, channels: 4, background: '#3366cc80' } })
            .png()
            .toBuffer(),
      ],
      [
        'image/webp',
        () =>
          sharp({ create: { width: 300, height: 200, channels: 3, background: '#cc6633' } })
            .webp()
            .toBuffer(),
      ],
      // HEIF as this build of libheif writes it (AV1-coded); HEVC-coded photos depend on the platform's decoder.
      [
        'image/heic',
        () =>
          sharp({ create: { width: 300, height: 200, channels: 3, background: '#33cc66' } })
            .heif({ compression: 'av1' })
            .toBuffer(),
      ],
    ])('takes a %s photo and stores it as WebP', async (type, make) => {
      const res = await upload(bob, await make(), type);
      expect(res.status, await res.clone().text()).toBe(200);
      const { avatar } = (await res.json()) as OwnProfile;
      const meta = await sharp(Buffer.from(await (await server.api(avatar)).arrayBuffer())).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
    });

    it('refuses a renamed file that is not an image with a 400 message', async () => {
      const res = await upload(ana, Buffer.from('%PDF-1.7\n'.repeat(400)), 'image/png');
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: NOT_AN_IMAGE, code: 'not_an_image' });
    });

    it('refuses a type that is not an image, and an empty body', async () => {
      expect((await upload(ana, Buffer.from('hello'), 'text/plain')).status).toBe(400);
      expect((await upload(ana, Buffer.alloc(0))).status).toBe(400);
    });

    it('answers 413 to a 20 MB file', async () => {
      const res = await upload(ana, Buffer.alloc(20 * 1024 * 1024, 0xff));
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ message: IMAGE_TOO_LARGE, code: 'payload_too_large' });
    });

    it('answers 404 for an image id that does not exist', async () => {
      expect((await server.api('/api/images/00000000-0000-4000-8000-000000000000-256.webp')).status).toBe(404);
      expect((await server.api('/api/images/..%2F..%2Fetc-256.webp')).status).toBe(404);
    });
  });

  describe('backgrounds', () => {
    it('lists the shipped gallery to anyone, and saves a choice only when signed in', async () => {
      const gallery = (await (await server.api('/api/backgrounds')).json()) as {
        shipped: Array<{ id: string; url: string }>;
        current: null;
      };
      expect(gallery.shipped.length).toBeGreaterThan(3);
      expect(gallery.current).toBeNull();
      expect((await server.api('/api/profile/background', { method: 'PUT', json: { background: 'dusk' } })).status).toBe(401);
      const res = await ana.call('/api/profile/background', { method: 'PUT', json: { background: 'dusk' } });
      expect(((await res.json()) as OwnProfile).background).toBe('dusk');
      expect(
        (await ana.call('/api/profile/background', { method: 'PUT', json: { background: 'https://evil.example/x.png' } })).status,
      ).toBe(400);
    });

    it("uploads a background with the avatar's checks; another user cannot choose it", async () => {
      const res = await ana.call('/api/backgrounds', {
        method: 'POST',
        body: await jpegWithGps(2400, 1600),
        headers: { 'content-type': 'image/jpeg' },
      });
      expect(res.status).toBe(201);
      const { id, url } = (await res.json()) as { id: string; url: string };
      const meta = await sharp(Buffer.from(await (await server.api(url)).arrayBuffer())).metadata();
      expect(meta.width).toBeLessThanOrEqual(1920);
      expect(meta.exif).toBeUndefined();
      expect((await bob.call('/api/profile/background', { method: 'PUT', json: { background: id } })).status).toBe(404);
      expect(
        ((await (await ana.call('/api/profile/background', { method: 'PUT', json: { background: id } })).json()) as OwnProfile).background,
      ).toBe(id);
      const bad = await ana.call('/api/backgrounds', {
        method: 'POST',
        body: Buffer.from('GIF89a not really'),
        headers: { 'content-type': 'image/webp' },
      });
      expect(bad.status).toBe(400);
    });
  });
});
