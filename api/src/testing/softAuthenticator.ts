import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64u = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

type Options = { challenge: string; rp?: { id?: string }; rpId?: string };

/**
 * A passkey authenticator in software, for tests: a P-256 key, attestation "none" and assertions
 * built as the WebAuthn specification lays them out (authenticator data, client data, ES256 over
 * both), with the user present and verified.
 */
export function softAuthenticator(origin: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const credentialId = randomBytes(16);
  let signCount = 0;
  let userHandle: string | undefined;

  const clientData = (type: string, challenge: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  const authData = (rpId: string, attested?: Uint8Array) => {
    const flags = 0x01 | 0x04 | (attested ? 0x40 : 0); // user present, user verified, attested credential data
    const count = Buffer.alloc(4);
    count.writeUInt32BE(signCount);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  };

  return {
    credentialId: b64u(credentialId),
    /** navigator.credentials.create() answered as @simplewebauthn/browser hands it to the server. */
    register(options: Options & { user: { id: string } }) {
      userHandle = options.user.id;
      const jwk = (publicKey as KeyObject).export({ format: 'jwk' });
      const cose = isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x!, 'base64url')],
          [-3, Buffer.from(jwk.y!, 'base64url')],
        ]),
      );
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, cose]);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Uint8Array | Map<string, string>>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, string>()],
          ['authData', authData(options.rp?.id ?? 'localhost', attested)],
        ]),
      );
      return {
        id: b64u(credentialId),
        rawId: b64u(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64u(clientData('webauthn.create', options.challenge)),
          attestationObject: b64u(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },
    /** navigator.credentials.get() answered: an assertion over the challenge. */
    authenticate(options: Options) {
      signCount += 1;
      const data = authData(options.rpId ?? 'localhost');
      const client = clientData('webauthn.get', options.challenge);
      const signature = sign('sha256', Buffer.concat([data, sha256(client)]), privateKey);
      return {
        id: b64u(credentialId),
        rawId: b64u(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64u(client),
          authenticatorData: b64u(data),
          signature: b64u(signature),
          ...(userHandle ? { userHandle } : {}),
        },
        clientExtensionResults: {},
      };
    },
  };
}
