import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';

/**
 * What this machine charges at the time for the work a chat server does, measured before a run so
 * that results can be compared across runs: on two instances of the same shared VM the same load
 * took 40 % of a core on one and 60 % on the other.
 *  - `jsonUs`: one JSON encode + decode of a chat packet (socket.io's parser does both per message);
 *  - `writeToIdlePeerUs`: one small write on loopback TCP to a process that sleeps until it arrives
 *    (the kernel wakes it inside the write, as the bench's client processes mostly are);
 *  - `writeToBusyPeerUs`: the same write while the reader is already awake.
 */
export type Calibration = { jsonUs: number; writeToIdlePeerUs: number; writeToBusyPeerUs: number };

const round = (x: number) => Math.round(x * 100) / 100;

function jsonUs(): number {
  const packet = ['message', { id: '1234-56', text: 'hello there, how is it going today? '.repeat(2), sentAt: Date.now() }];
  let sink = 0;
  const run = (n: number) => {
    for (let i = 0; i < n; i++) sink += (JSON.parse(`42${JSON.stringify(packet)}`.slice(2)) as unknown[]).length;
  };
  run(20_000); // warm up
  const t = process.hrtime.bigint();
  run(100_000);
  const us = Number(process.hrtime.bigint() - t) / 1e3 / 100_000;
  return sink > 0 ? round(us) : NaN;
}

async function loopbackWrites(): Promise<Pick<Calibration, 'writeToIdlePeerUs' | 'writeToBusyPeerUs'>> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  // A reader in its own process that does nothing but drain the socket.
  const reader = spawn(
    process.execPath,
    ['-e', `require('net').connect(${port}, '127.0.0.1').on('data', () => {}).on('close', () => process.exit(0))`],
    {
      stdio: 'ignore',
    },
  );
  try {
    const [sock] = (await once(server, 'connection')) as [Socket];
    sock.setNoDelay(true);
    const buf = Buffer.alloc(80, 97);
    const timed = () => {
      const t = process.hrtime.bigint();
      sock.write(buf);
      return Number(process.hrtime.bigint() - t) / 1e3;
    };
    // One write every 2 ms: the reader is asleep each time.
    let idle = 0;
    for (let i = 0; i < 500; i++) {
      idle += timed();
      await new Promise((r) => setTimeout(r, 2));
    }
    let busy = 0;
    for (let i = 0; i < 10_000; i++) busy += timed();
    sock.destroy();
    return { writeToIdlePeerUs: round(idle / 500), writeToBusyPeerUs: round(busy / 10_000) };
  } finally {
    reader.kill();
    server.close();
  }
}

export async function calibrate(): Promise<Calibration> {
  return { jsonUs: jsonUs(), ...(await loopbackWrites()) };
}
