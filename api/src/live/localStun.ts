import dgram from 'node:dgram';

const MAGIC_COOKIE = 0x2112a442;
const BINDING_REQUEST = 0x0001;
const BINDING_SUCCESS = 0x0101;
const XOR_MAPPED_ADDRESS = 0x0020;

/**
 * A STUN binding responder on loopback for the SFU's own peer connections. werift always asks a
 * STUN server for its reflexive address (Google's when none is given) and waits 5 s for one that
 * cannot be reached; this answers at once, with the configured public address when there is one,
 * so the candidate it yields is the one a viewer behind the internet should use.
 */
export async function startLocalStun(publicIp?: string): Promise<{ url: string; close(): Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, from) => {
    if (msg.length < 20 || msg.readUInt16BE(0) !== BINDING_REQUEST || msg.readUInt32BE(4) !== MAGIC_COOKIE) return;
    const ip = (publicIp ?? from.address).split('.').map(Number);
    const res = Buffer.alloc(32);
    res.writeUInt16BE(BINDING_SUCCESS, 0);
    res.writeUInt16BE(12, 2);
    res.writeUInt32BE(MAGIC_COOKIE, 4);
    msg.copy(res, 8, 8, 20);
    res.writeUInt16BE(XOR_MAPPED_ADDRESS, 20);
    res.writeUInt16BE(8, 22);
    res.writeUInt16BE(0x0001, 24);
    res.writeUInt16BE(from.port ^ (MAGIC_COOKIE >>> 16), 26);
    res.writeUInt32BE((((ip[0]! << 24) | (ip[1]! << 16) | (ip[2]! << 8) | ip[3]!) ^ MAGIC_COOKIE) >>> 0, 28);
    socket.send(res, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    url: `stun:127.0.0.1:${socket.address().port}`,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
