/**
 * A hash of traits of this browser that clearing cookies or opening a private window does not
 * change: how it draws a canvas, its graphics renderer, screen, time zone, languages, platform and
 * processor count. Sent with sign-up, sign-in and the age gate so that a ban or an under-age
 * answer can hold beyond the cookie. A signal, not an identity: identical phones share it, and a
 * different browser on the same device does not. No trait leaves the page, only the hash.
 */
let pending: Promise<string | undefined> | undefined;

export function deviceFingerprint(): Promise<string | undefined> {
  pending ??= compute().catch(() => undefined);
  return pending;
}

async function compute(): Promise<string | undefined> {
  if (!globalThis.crypto?.subtle) return undefined;
  const traits = [
    canvasTrait(),
    webglRenderer(),
    `${screen.width}x${screen.height}x${screen.colorDepth}@${window.devicePixelRatio}`,
    Intl.DateTimeFormat().resolvedOptions().timeZone,
    navigator.languages?.join(',') ?? navigator.language,
    navigator.platform,
    String(navigator.hardwareConcurrency ?? ''),
    String(navigator.maxTouchPoints ?? ''),
  ];
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(['parley device', 1, ...traits])));
  return base64url(new Uint8Array(digest));
}

/** How this browser renders text and shapes: differs with the graphics stack and fonts. */
function canvasTrait(): string {
  const canvas = document.createElement('canvas');
  canvas.width = 200;
  canvas.height = 40;
  const g = canvas.getContext('2d');
  if (!g) return '';
  g.textBaseline = 'top';
  g.font = '16px sans-serif';
  g.fillStyle = '#f60';
  g.fillRect(100, 1, 62, 20);
  g.fillStyle = '#069';
  g.fillText('Parley, 👋 ~ø', 2, 15);
  return canvas.toDataURL();
}

function webglRenderer(): string {
  const gl = document.createElement('canvas').getContext('webgl');
  if (!gl) return '';
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  return info
    ? `${String(gl.getParameter(info.UNMASKED_VENDOR_WEBGL))}|${String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL))}`
    : String(gl.getParameter(gl.RENDERER));
}

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
