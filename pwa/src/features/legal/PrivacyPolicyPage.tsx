import { EVIDENCE_DAYS } from '@parley/contract/safety';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { DocLink, LegalDocument, type LegalSection } from './LegalDocument';
import { RelayStatus } from './RelayStatus';
import { CHAT_PICTURES_GRACE_MS } from '@parley/contract/attachments';

const CHAT_PICTURE_MINUTES = CHAT_PICTURES_GRACE_MS / 60_000;

const cell = 'border border-slate-200 px-3 py-2 text-start align-top';

/** Each kind of data and how long the code keeps it. */
const retention: Array<[MessageDescriptor, MessageDescriptor]> = [
  [msg`Account and profile`, msg`Until you delete your account; your username stays reserved 30 days after that.`],
  [msg`Refresh tokens (sign-in sessions)`, msg`30 days after the device last used Parley; ended at once when you log out.`],
  [msg`Access tokens`, msg`15 minutes, in your browser’s memory only; never stored by us.`],
  [msg`One-on-one text messages and video calls`, msg`Not stored on our servers at all.`],
  [
    msg`Pictures in one-on-one chats (only when both of you allow them)`,
    msg`While the chat lasts and ${CHAT_PICTURE_MINUTES} minutes after it ends; a reported one as report evidence.`,
  ],
  [msg`Group room and direct messages`, msg`Until the writer or a group moderator deletes them, or the writer deletes their account.`],
  [msg`Live stream chat`, msg`In our server’s memory while the stream lasts.`],
  [msg`Live video`, msg`Not stored: forwarded to viewers as it arrives.`],
  [msg`Report evidence (messages, a video picture)`, msg`${EVIDENCE_DAYS} days after the report.`],
  [msg`Reports and moderation decisions`, msg`As the safety history of the accounts concerned; not deleted automatically.`],
  [msg`IP addresses and device fingerprints recorded against ban evasion`, msg`90 days after the account last used them.`],
  [msg`Live streams you watched (who streamed, when)`, msg`30 days, to weigh reports.`],
  [msg`An under-age answer given in a browser`, msg`24 hours, for that browser only.`],
  [msg`Browsers an account signed in from`, msg`Until the account is deleted.`],
  [msg`People you met in one-on-one chats`, msg`30 days.`],
  [msg`Blocks, friends, ratings, missions, notifications`, msg`Until you delete your account.`],
  [
    msg`Push subscriptions`,
    msg`Until you turn notifications off, sign out on that device or delete your account; one that keeps failing for a day is deleted.`,
  ],
  [msg`Support requests`, msg`Not deleted automatically; unlinked from your account when you delete it.`],
  [msg`Payment records`, msg`Not deleted automatically: at least as long as tax and accounting law requires (usually up to ten years).`],
  [msg`Custom emoji`, msg`Until you delete one; its name then stays reserved for you, without the picture.`],
  [msg`Popular-topic counts`, msg`One day.`],
  [msg`Rate-limit counters (your IP address)`, msg`A minute to a day.`],
  [msg`Server logs (no IP addresses)`, msg`As long as the operator’s log storage keeps them.`],
];

function RetentionRows() {
  const { i18n } = useLingui();
  return (
    <tbody>
      {retention.map(([what, howLong]) => (
        <tr key={what.id}>
          <td className={cell}>{i18n._(what)}</td>
          <td className={cell}>{i18n._(howLong)}</td>
        </tr>
      ))}
    </tbody>
  );
}

const sections: LegalSection[] = [
  {
    id: 'who-we-are',
    heading: msg`Who we are`,
    body: (
      <>
        <p>
          <Trans>
            Parley (“we”, “us”) runs the Parley app: one-on-one text and video chat with people you have not met yet, group rooms, live
            streams, missions, a store and premium membership. We decide how the personal data described here is used, which makes us its
            controller.
          </Trans>
        </p>
        <p>
          <Trans>
            Questions about this policy or your data reach us through the <DocLink to="/contact-support">contact support</DocLink> form;
            choose the topic “My account or signing in” and mention privacy.
          </Trans>
        </p>
      </>
    ),
  },
  {
    id: 'what-we-collect',
    heading: msg`What we collect`,
    body: (
      <>
        <p>
          <Trans>We collect as little as the app needs to work and to keep people safe:</Trans>
        </p>
        <ul>
          <li>
            <Trans>
              <strong>Account details</strong> you give us when you sign up: username, password (stored only as an argon2id hash we cannot
              reverse), age and gender. Later, if you add them: avatar, description, hobbies, country, a background image, your settings,
              and which profile details only your friends may see.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Google sign-in</strong>, if you use it: Google tells us your Google account ID, name, email address and profile
              picture. We keep the ID and the address of the picture (as your avatar); your name and email only suggest a username and are
              not stored. We never see your Google password.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Sign-in sessions</strong>: a refresh token per signed-in device (stored only as a hash), when it was made, used and
              ends.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>The browsers you sign in from</strong>: a random ID that your browser keeps in a cookie (see Cookies), recorded with
              your account and the date we first saw it.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Your activity that the app shows back to you</strong>: friends and friend requests, people you blocked, ratings you
              gave, the people you met in one-on-one chats, groups you belong to, streamers you follow, missions (XP, gold, level, your
              daily streak and the time zone your device reports), store purchases, custom emoji and notifications.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Messages</strong> in group rooms and direct messages, which we store; and one-on-one chats, which we do not (see
              below).
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Reports and moderation</strong>: see “Reports, bans and safety” below.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Support requests</strong> you send us: your email address, the topic, your message and, if you were signed in, your
              account.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Payment records</strong>: your subscription or donation, its amount, billing cycle and status, and the customer ID our
              payment provider gives us. Card details go directly to Stripe and never reach our servers.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Push subscriptions</strong>, if you turn on notifications on a device: the address your browser’s push service gave it
              (at Google, Mozilla or Apple, depending on your browser) and the keys that encrypt what we send there.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Technical data</strong>: our server writes one log line per request with the page or API address asked for, the
              answer’s status and how long it took; it does not log your IP address or browser. Your IP address is used to limit repeated
              sign-in attempts, sign-ups and spam, in counters that last from a minute to a day.
            </Trans>
          </li>
        </ul>
        <p>
          <Trans>
            Interests you search with are counted without any link to you (the topic and the minute only), so we can suggest popular topics;
            the counts are deleted after a day.
          </Trans>
        </p>
      </>
    ),
  },
  {
    id: 'chats-and-video',
    heading: msg`Your chats and video calls`,
    body: (
      <>
        <p>
          <Trans>
            <strong>Messages in one-on-one text chats are not stored on our servers.</strong> We pass each message to your partner and
            forget it. Each message carries a short code from our server (a receipt), so that a report can prove the message is real. When
            the chat ends, the conversation exists only on the two devices that took part, until you close or reload the page.
          </Trans>
        </p>
        <p>
          <Trans>
            <strong>Pictures in a one-on-one chat</strong> are sent only while both of you allow them in that chat. We keep them on our
            server while the chat lasts, so that your partner can load them, and delete them {CHAT_PICTURE_MINUTES} minutes after it ends,
            unless you or your partner report the chat: a reported picture is kept as report evidence.
          </Trans>
        </p>
        <p>
          <Trans>
            <strong>Group rooms and direct messages are stored on our servers</strong>, so that you can read the history. A message stays
            until the person who wrote it (or a moderator of the group) deletes it, or until its writer deletes their account; either way
            its text is erased at once and others see “message deleted”. There is no automatic time limit, and a closed group keeps its
            history. When the operator uses Ably, a hosted messaging service, it also delivers group room messages.
          </Trans>
        </p>
        <p>
          <Trans>
            <strong>One-on-one video calls</strong> are encrypted by your browser from end to end; our server only helps the two browsers
            find each other. Whether your IP address is shown to the stranger depends on a relay:
          </Trans>
        </p>
        <ul>
          <li>
            <Trans>
              <strong>Without a relay</strong>, the two browsers connect directly, so each side can see the other’s IP address.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>With a relay</strong> (a TURN server), calls between strangers go only through it: neither side sees the other’s
              address, and the relay passes on the encrypted video without being able to read it.
            </Trans>
          </li>
        </ul>
        <RelayStatus />
        <p>
          <Trans>
            <strong>Live streams pass through Parley’s server.</strong> The broadcaster’s video and sound go to our server, which forwards
            them to each viewer; to do that it handles the video unencrypted in its memory, and it does not record or keep it. Viewers and
            broadcaster do not see each other’s IP addresses; our server sees them all. A stream’s chat is kept in our server’s memory while
            the stream lasts, so that it can be reported, and is not written anywhere.
          </Trans>
        </p>
        <p>
          <Trans>
            We do not record, store or watch your calls. Background blur and the nudity guard run entirely on your own device; a picture of
            a call leaves it only when you report someone (see below).
          </Trans>
        </p>
      </>
    ),
  },
  {
    id: 'safety-records',
    heading: msg`Reports, bans and safety`,
    body: (
      <>
        <p>
          <Trans>
            <strong>A report</strong> keeps who reported whom, in which kind of conversation, the reason, any text you add, when it happened
            and what the moderators decided. It also keeps evidence for the moderators:
          </Trans>
        </p>
        <ul>
          <li>
            <Trans>
              in a one-on-one text chat, up to the last 50 messages of the conversation from both sides, checked against our receipts;
            </Trans>
          </li>
          <li>
            <Trans>
              in a group room, a direct conversation or a live chat, up to 50 messages around the reported one, from our own copy;
            </Trans>
          </li>
          <li>
            <Trans>
              in a video chat, one still picture of the reported person’s video, taken by your device at the moment you report; our server
              re-encodes it, so it keeps no metadata (camera, place or time).
            </Trans>
          </li>
        </ul>
        <p>
          <Trans>
            The evidence (messages and picture) is deleted {EVIDENCE_DAYS} days after the report. The report itself and the moderators’
            decisions stay as the safety history of both accounts. Each report also records how much it counts towards a review: that
            depends on whether you had really met the person on Parley (a chat, a room, direct messages or a stream you watched) and on your
            account’s age, its chats, the decisions about it and how moderators decided your earlier reports.
          </Trans>
        </p>
        <p>
          <Trans>
            <strong>To hold a ban against new accounts</strong>, we record the IP addresses an account used (for IPv6, only the /64 network
            it belongs to), a device fingerprint (a one-way hash of traits of the browser, not the traits themselves) and the browsers it
            signed in from (the random ID in the device cookie). The addresses and fingerprints are kept 90 days. A new account from the
            address or device of a banned one gets a harder bot check and starts with limits until it has a clean history, and moderators
            see which accounts are linked this way.
          </Trans>
        </p>
        <p>
          <Trans>
            <strong>Your own browser is recognised</strong> as one you signed in from before, through a signed known-device cookie, so that
            someone else guessing your password cannot lock you out of your account.
          </Trans>
        </p>
      </>
    ),
  },
  {
    id: 'why',
    heading: msg`Why we use your data`,
    body: (
      <>
        <ul>
          <li>
            <Trans>
              <strong>To provide Parley</strong> (performing our contract with you): your account, matching you with partners who fit your
              filters, friends, messages, missions, the store and premium features.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>To keep people safe</strong> (our legitimate interest, and yours): enforcing the{' '}
              <DocLink to="/rules">Community Rules</DocLink>, reviewing reports, blocking, stopping bots, spam and abuse, and keeping banned
              people from coming back.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>To answer you</strong>: replying to support requests at the email address you gave.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>To take payments and meet legal duties</strong>: keeping payment records as tax and accounting law requires.
            </Trans>
          </li>
        </ul>
        <p>
          <Trans>
            We do not sell your data, we do not show advertising, and we do not build profiles of you for anyone else. We do not use your
            chats to train any model.
          </Trans>
        </p>
      </>
    ),
  },
  {
    id: 'retention',
    heading: msg`How long we keep it`,
    body: (
      <>
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-sm">
            <caption className="sr-only">
              <Trans>How long each kind of data is kept</Trans>
            </caption>
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className={cell}>
                  <Trans>Data</Trans>
                </th>
                <th scope="col" className={cell}>
                  <Trans>Kept for</Trans>
                </th>
              </tr>
            </thead>
            <RetentionRows />
          </table>
        </div>
      </>
    ),
  },
  {
    id: 'cookies',
    heading: msg`Cookies and storage on your device`,
    body: (
      <>
        <p>
          <Trans>
            Parley’s cookies are all needed to sign you in safely; it uses no tracking, analytics or advertising cookies of any kind:
          </Trans>
        </p>
        <ul>
          <li>
            <Trans>
              <strong>The refresh cookie</strong> (<code>parley_refresh</code>): httpOnly, so scripts cannot read it, sent only to our
              sign-in endpoints. It keeps you signed in until you log out, or until Parley goes unused on that device for 30 days.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>The device cookie</strong> (<code>parley_device</code>): httpOnly, sent only to our sign-in endpoints, kept two years.
              It holds a random ID for this browser, so that a ban holds against new accounts made from the same browser.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>The known-device cookies</strong> (<code>parley_known_…</code>, one per account signed in on this browser): httpOnly,
              signed by our server so they cannot be forged, sent only to our sign-in endpoints, kept 90 days. Each marks this browser as
              one you signed in from, so that someone else guessing your password cannot lock you out.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>The Google sign-in state cookie</strong> (<code>parley_oauth_state</code>): set for ten minutes while you sign in with
              Google, to make sure the answer that comes back from Google belongs to the sign-in you started.
            </Trans>
          </li>
        </ul>
        <p>
          <Trans>
            Your browser also keeps a few preferences on your device so the app feels the same next time: chat filters, chosen camera and
            microphone, the nudity guard and background settings, your profile, and whether you were signed in. It never keeps your password
            or sign-in tokens there. The installed app caches its own files so it opens offline. Clearing your browser data removes all of
            this.
          </Trans>
        </p>
      </>
    ),
  },
  {
    id: 'sharing',
    heading: msg`Who else sees it`,
    body: (
      <>
        <p>
          <Trans>
            Other users see what you choose to show: your username, avatar, age, gender, description, hobbies, level and rating. We share
            data only with the services that run Parley for us, and only what each needs:
          </Trans>
        </p>
        <ul>
          <li>
            <Trans>
              <strong>Stripe</strong> processes payments, subscriptions and donations: we give it your username and Parley account ID, and
              you give it your card details on its own page, under its own privacy policy.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Google</strong>, only if you choose to sign in with Google.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Your browser’s push service</strong> (Google, Mozilla or Apple) carries notifications to your devices if you turn them
              on; what we send is encrypted so that the service cannot read it.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Ably</strong>, when the operator uses it, delivers group room messages.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>The relay (TURN) server</strong>, when there is one, sees the IP addresses of both sides of a call but cannot read the
              call.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Our hosting provider</strong> stores and runs the service.
            </Trans>
          </li>
        </ul>
        <p>
          <Trans>
            We disclose data to authorities only when the law requires it, or when we believe in good faith that someone’s life or safety is
            at risk. Some of these providers may process data outside your country; where they do, we rely on the safeguards the law
            provides, such as standard contractual clauses.
          </Trans>
        </p>
      </>
    ),
  },
  {
    id: 'your-rights',
    heading: msg`Your rights and deleting your account`,
    body: (
      <>
        <p>
          <Trans>
            You can ask us at any time to show you the data we hold about you, to correct it, to give you a copy in a portable format, to
            restrict or object to a use of it, or to delete it. In your settings you can download a copy of your data yourself.
          </Trans>
        </p>
        <p>
          <Trans>
            <strong>Deleting your account</strong>: use “Delete my account” in your settings, or ask through{' '}
            <DocLink to="/contact-support">contact support</DocLink>. It happens at once: your profile, pictures, friends, blocks,
            encounters, notifications, push subscriptions, sign-in devices and mission history are removed, and the text of every message
            you wrote is erased. We keep your username for 30 days so that nobody can pose as you, then free it; the names of your custom
            emoji stay reserved, without their pictures, so that nobody else’s picture appears in old messages; reports you made or that
            concern you stay with the moderators’ decisions; payment records stay as the law requires, and your support requests stay
            without a link to your account.
          </Trans>
        </p>
        <p>
          <Trans>
            If you think we have handled your data wrongly, please tell us first; you also have the right to complain to your data
            protection authority.
          </Trans>
        </p>
      </>
    ),
  },
  {
    id: 'security',
    heading: msg`Security`,
    body: (
      <p>
        <Trans>
          Passwords are hashed with argon2id. Sign-in tokens are short-lived and held in memory; the long-lived refresh token sits in an
          httpOnly cookie, rotates on every use, and is stored only as a hash. Traffic is encrypted in transit. No system is perfectly
          secure, so if you notice something wrong, tell us straight away.
        </Trans>
      </p>
    ),
  },
  {
    id: 'age',
    heading: msg`Adults only`,
    body: (
      <p>
        <Trans>
          Parley is for people aged 18 and over. We do not knowingly collect data from anyone younger. If we learn that an account belongs
          to someone under 18, we close it and delete its data. If you believe a child is using Parley, please report the account or write
          to us.
        </Trans>
      </p>
    ),
  },
  {
    id: 'changes',
    heading: msg`Changes to this policy`,
    body: (
      <p>
        <Trans>
          When we change this policy we update the date at the top. If a change matters for how your data is used, we tell you in the app
          before it takes effect.
        </Trans>
      </p>
    ),
  },
];

export default function PrivacyPolicyPage() {
  return (
    <LegalDocument
      title={msg`Privacy Policy`}
      summary={
        <p>
          <Trans>
            The short version: we keep what Parley needs to run and to keep people safe. We don’t store your one-on-one chats; we do store
            group and direct messages, and what a report needs as evidence. Live streams pass through our server; a one-on-one video call
            may show your IP address to the other person unless this server uses a relay. We use no tracking cookies, and you can delete
            your account whenever you like.
          </Trans>
        </p>
      }
      sections={sections}
    />
  );
}
