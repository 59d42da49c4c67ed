import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { expect, test, type Browser, type Page } from './fixtures';
import { e2ePort } from '../playwright.config';
import { startOwnServer } from './ownServer';
import { postSignup } from './signup';

// Strangers never learn each other's IP address from a call: with a TURN server configured, every
// candidate a page gets from its partner is a relay candidate. Checked against Debian's coturn.
const turnPort = e2ePort(4) + 20_000;
let url = '';
const PASSWORD = 'a good long password';
let turn: ChildProcess | undefined;
let server: Awaited<ReturnType<typeof startOwnServer>> | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // coturn is a test dependency like Chromium: .ci/run installs it; without it this spec fails, never skips.
  if (spawnSync('turnserver', ['--version']).error)
    throw new Error("coturn's turnserver is missing: apt-get install coturn (.ci/run does)");
  turn = spawn(
    'turnserver',
    [
      '-n',
      '--no-cli',
      '--no-tls',
      '--no-dtls',
      '--listening-ip=127.0.0.1',
      '--relay-ip=127.0.0.1',
      `--listening-port=${turnPort}`,
      '--min-port=49300',
      '--max-port=49400',
      '--lt-cred-mech',
      '--user=parley:turnsecret',
      '--realm=parley.test',
      // Both test browsers are on this machine: let the relay reach loopback peers.
      '--allow-loopback-peers',
      '--log-file=stdout',
      '--simple-log',
    ],
    { stdio: 'ignore' },
  );
  server = await startOwnServer(4, {
    ICE_SERVERS: JSON.stringify([{ urls: `turn:127.0.0.1:${turnPort}?transport=udp`, username: 'parley', credential: 'turnsecret' }]),
  });
  url = server.url;
});
test.afterAll(async () => {
  await server?.stop();
  turn?.kill();
});

function recordConnections() {
  const w = window as unknown as { __pcs: RTCPeerConnection[] };
  w.__pcs = [];
  window.RTCPeerConnection = class extends RTCPeerConnection {
    constructor(...args: ConstructorParameters<typeof RTCPeerConnection>) {
      super(...args);
      w.__pcs.push(this);
    }
  };
}

async function videoUser(browser: Browser, gender: 'male' | 'female'): Promise<Page> {
  const context = await browser.newContext({ baseURL: url, serviceWorkers: 'block', permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  await page.addInitScript(recordConnections);
  const res = await postSignup(page.request, {
    data: {
      username: `relay${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20),
      password: PASSWORD,
      age: 30,
      gender,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  await page.goto('/videochat');
  await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
  return page;
}

/** Every candidate this page's connections know of the partner, and those they use. */
const candidateTypes = (page: Page) =>
  page.evaluate(async () => {
    const remote: string[] = [];
    const used: string[] = [];
    for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
      const stats = await pc.getStats();
      const byId = new Map<
        string,
        { type: string; candidateType?: string; localCandidateId?: string; nominated?: boolean; state?: string }
      >();
      stats.forEach((s: { id: string; type: string }) => byId.set(s.id, s));
      for (const s of byId.values()) {
        if (s.type === 'remote-candidate' && s.candidateType) remote.push(s.candidateType);
        if (s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded' && s.localCandidateId)
          used.push(byId.get(s.localCandidateId)?.candidateType ?? '?');
      }
    }
    return { remote, used };
  });

test('a video call between strangers goes through the TURN relay, and neither side sees the other’s address', async ({ browser }) => {
  test.setTimeout(120_000);
  const [a, b] = await Promise.all([videoUser(browser, 'male'), videoUser(browser, 'female')]);
  await a.getByRole('button', { name: 'Start', exact: true }).click();
  await b.getByRole('button', { name: 'Start', exact: true }).click();
  const remote = b.getByTestId('remote-video');
  await expect.poll(() => remote.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 30_000 }).toBeGreaterThan(0);
  for (const page of [a, b]) {
    // The side that answered may report its nominated pair a moment after the video plays.
    await expect.poll(async () => (await candidateTypes(page)).used, { timeout: 45_000 }).toContain('relay');
    const { remote: types } = await candidateTypes(page);
    expect(types.length).toBeGreaterThan(0);
    expect(new Set(types)).toEqual(new Set(['relay']));
  }
});
