// The e2e specs import this file from the PWA's project, which does not include api/src's declarations.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./oidc-provider.d.ts" />
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** Someone the stand-in knows, by the subject Google would give them. */
export type GooglePerson = { name: string; email: string; picture?: string };

/**
 * A local OpenID provider (oidc-provider) standing in for Google: its /auth, /token and /userinfo
 * are what a server with `googleEndpoints` (GOOGLE_OAUTH_BASE) calls. Its sign-in page takes any
 * password for a known subject. Listening first, so the issuer is known before the app's server
 * starts; `admit` names the app's client once its callback address is known.
 */
export async function googleStandIn(people: Record<string, GooglePerson>) {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    endpoints: { authorizationURL: `${issuer}/auth`, tokenURL: `${issuer}/token`, userProfileURL: `${issuer}/userinfo` },
    admit(client: { id: string; secret: string; callback: string }) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: client.id,
            client_secret: client.secret,
            redirect_uris: [client.callback],
            token_endpoint_auth_method: 'client_secret_post',
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        // Google's profile endpoint ends in /userinfo; the strategy reads OpenID claims from there.
        routes: { userinfo: '/userinfo' },
        claims: { openid: ['sub'], profile: ['name', 'picture'], email: ['email', 'email_verified'] },
        async findAccount(_ctx, sub) {
          const person = people[sub];
          if (!person) return undefined;
          return { accountId: sub, claims: async () => ({ sub, ...person, email_verified: true }) };
        },
        cookies: { keys: ['oidc-test-cookie-key'] },
        features: { devInteractions: { enabled: true } },
      });
      server.on('request', provider.callback());
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
