import { expect } from 'vitest';

/** A browser's cookie jar, per host, good enough for one Google round trip. */
export class CookieJar {
  readonly #byHost = new Map<string, Map<string, string>>();
  header(url: string): string {
    return [...(this.#byHost.get(new URL(url).host) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(url: string, res: Response): void {
    const host = new URL(url).host;
    const jar = this.#byHost.get(host) ?? new Map<string, string>();
    this.#byHost.set(host, jar);
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /expires=Thu, 01 Jan 1970/i.test(a) || /max-age=0\b/i.test(a.trim()));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  }
  get(url: string, name: string): string | undefined {
    return this.#byHost.get(new URL(url).host)?.get(name);
  }
}

/** One request as a browser makes it: cookies in and out, redirects not followed. */
export async function browse(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = jar.header(url);
  if (cookie) headers.set('cookie', cookie);
  const res = await fetch(url, { ...init, headers, redirect: 'manual' });
  jar.take(url, res);
  return res;
}

/**
 * From the provider's consent address to Parley's callback, as a browser: the stand-in's login
 * and consent pages are submitted as the given person. Answers where the callback sends the browser.
 */
export async function throughGoogle(
  jar: CookieJar,
  serverUrl: string,
  consentUrl: string,
  sub: string,
  /** Told the callback address the provider sent the browser to. */
  seen?: (callback: string) => void,
): Promise<string> {
  let url = consentUrl;
  for (let hops = 0; hops < 15; hops++) {
    if (url.startsWith(`${serverUrl}/api/auth/google/callback`)) {
      seen?.(url);
      const res = await browse(jar, url);
      expect(res.status).toBe(302);
      return res.headers.get('location')!;
    }
    let res = await browse(jar, url);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url).href;
      continue;
    }
    // An interaction page of the provider: fill in its form (login, then consent).
    expect(res.status).toBe(200);
    const page = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    expect(action && prompt, page.slice(0, 500)).toBeTruthy();
    const form = new URLSearchParams({ prompt: prompt! });
    if (prompt === 'login') {
      form.set('login', sub);
      form.set('password', 'any');
    }
    const submitTo = new URL(action!.replace(/&amp;/g, '&'), url).href;
    res = await browse(jar, submitTo, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBeGreaterThanOrEqual(300);
    url = new URL(res.headers.get('location')!, submitTo).href;
  }
  throw new Error('the Google round trip never came back to Parley');
}
