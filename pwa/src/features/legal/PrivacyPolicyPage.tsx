import { DocLink, LegalDocument, type LegalSection } from './LegalDocument';

const cell = 'border border-slate-200 px-3 py-2 text-left align-top';

const sections: LegalSection[] = [
  {
    id: 'who-we-are',
    heading: 'Who we are',
    body: (
      <>
        <p>
          Parley (“we”, “us”) runs the Parley app: one-on-one text and video chat with people you have not met yet, group rooms, live
          streams, missions, a store and premium membership. We decide how the personal data described here is used, which makes us its
          controller.
        </p>
        <p>
          Questions about this policy or your data reach us through the <DocLink to="/contact-support">contact support</DocLink> form;
          choose the topic “My account or signing in” and mention privacy.
        </p>
      </>
    ),
  },
  {
    id: 'what-we-collect',
    heading: 'What we collect',
    body: (
      <>
        <p>We collect as little as the app needs to work and to keep people safe:</p>
        <ul>
          <li>
            <strong>Account details</strong> you give us when you sign up: username, password (stored only as an argon2id hash we cannot
            reverse), age and gender. Later, if you add them: avatar, description, hobbies and a background image.
          </li>
          <li>
            <strong>Google sign-in</strong>, if you use it: Google tells us your Google account ID, your name and your profile picture. We
            never see your Google password.
          </li>
          <li>
            <strong>Sign-in sessions</strong>: a refresh token per signed-in device (stored as a hash) and the time it was created and last
            used.
          </li>
          <li>
            <strong>Your activity that the app shows back to you</strong>: friends, people you blocked, ratings you gave, missions, XP,
            gold, level, store purchases, custom emoji, notifications and your premium tier.
          </li>
          <li>
            <strong>Support requests</strong> you send us: your email address, the topic, your message and, if you were signed in, your
            account.
          </li>
          <li>
            <strong>Reports</strong> you file about another user, or that others file about you: who reported whom, the reason, any text you
            add and when it happened.
          </li>
          <li>
            <strong>Payment records</strong>: your subscription or donation, its amount, billing cycle and status, and the customer ID our
            payment provider gives us. Card details go directly to Stripe and never reach our servers.
          </li>
          <li>
            <strong>Technical data</strong>: your IP address and browser type in short-lived server logs, and the address alone, briefly, to
            limit repeated sign-in attempts and spam.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'chats-and-video',
    heading: 'Your chats and video calls',
    body: (
      <>
        <p>
          <strong>Messages in one-on-one text chats are not stored on our servers.</strong> We pass each message to your partner and forget
          it. When the chat ends, the conversation exists only on the two devices that took part, until you close or reload the page.
        </p>
        <p>
          <strong>Video and voice go directly between you and your partner</strong> (peer to peer, encrypted by your browser). Our servers
          only help the two browsers find each other. When a direct connection is impossible, the encrypted stream may pass through a relay
          server that cannot decrypt it. We do not record, store or watch your calls. Background blur runs entirely on your own device.
        </p>
        <p>
          Messages in <strong>group rooms and live-stream chats</strong> are seen by everyone in the room. They are delivered through our
          servers or our hosted messaging provider and are not kept after the room closes, except where someone reports them.
        </p>
        <p>Interests you search with are counted without any link to you (the topic and the time only) so we can suggest popular topics.</p>
      </>
    ),
  },
  {
    id: 'why',
    heading: 'Why we use your data',
    body: (
      <>
        <ul>
          <li>
            <strong>To provide Parley</strong> (performing our contract with you): your account, matching you with partners who fit your
            filters, friends, missions, the store and premium features.
          </li>
          <li>
            <strong>To keep people safe</strong> (our legitimate interest, and yours): enforcing the{' '}
            <DocLink to="/rules">Community Rules</DocLink>, reviewing reports, blocking, stopping bots, spam and abuse, and keeping banned
            people from coming back.
          </li>
          <li>
            <strong>To answer you</strong>: replying to support requests at the email address you gave.
          </li>
          <li>
            <strong>To take payments and meet legal duties</strong>: keeping payment records as tax and accounting law requires.
          </li>
        </ul>
        <p>
          We do not sell your data, we do not show advertising, and we do not build profiles of you for anyone else. We do not use your
          chats to train any model.
        </p>
      </>
    ),
  },
  {
    id: 'retention',
    heading: 'How long we keep it',
    body: (
      <>
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-sm">
            <caption className="sr-only">How long each kind of data is kept</caption>
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className={cell}>
                  Data
                </th>
                <th scope="col" className={cell}>
                  Kept for
                </th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td className={cell}>Account and profile</td>
                <td className={cell}>Until you delete your account; then removed within 30 days.</td>
              </tr>
              <tr>
                <td className={cell}>Refresh tokens (sign-in sessions)</td>
                <td className={cell}>30 days from sign-in at most; ended at once when you log out.</td>
              </tr>
              <tr>
                <td className={cell}>Access tokens</td>
                <td className={cell}>15 minutes, in your browser’s memory only; never stored by us.</td>
              </tr>
              <tr>
                <td className={cell}>One-on-one text messages and video</td>
                <td className={cell}>Not stored on our servers at all.</td>
              </tr>
              <tr>
                <td className={cell}>Support requests</td>
                <td className={cell}>Two years after we answer, so we can follow up on the same problem; then deleted.</td>
              </tr>
              <tr>
                <td className={cell}>Reports</td>
                <td className={cell}>One year; longer only while they justify an active suspension or ban.</td>
              </tr>
              <tr>
                <td className={cell}>Blocks</td>
                <td className={cell}>Until either account is deleted.</td>
              </tr>
              <tr>
                <td className={cell}>Payment records</td>
                <td className={cell}>As long as tax and accounting law requires (usually up to ten years).</td>
              </tr>
              <tr>
                <td className={cell}>Server logs and rate-limit counters</td>
                <td className={cell}>Logs 14 days; counters one hour at most.</td>
              </tr>
            </tbody>
          </table>
        </div>
      </>
    ),
  },
  {
    id: 'cookies',
    heading: 'Cookies and storage on your device',
    body: (
      <>
        <p>Parley uses exactly two cookies, both needed to sign you in, and no tracking, analytics or advertising cookies of any kind:</p>
        <ul>
          <li>
            <strong>The refresh cookie</strong> (<code>parley_refresh</code>): httpOnly, so scripts cannot read it, sent only to our sign-in
            endpoints. It keeps you signed in for up to 30 days and is deleted when you log out.
          </li>
          <li>
            <strong>The Google sign-in state cookie</strong>: set for a few minutes while you sign in with Google, to make sure the answer
            that comes back from Google belongs to the sign-in you started.
          </li>
        </ul>
        <p>
          Your browser also keeps a few preferences on your device so the app feels the same next time: chat filters, chosen camera and
          microphone, settings and your profile. It never keeps your password or sign-in tokens there. The installed app caches its own
          files so it opens offline. Clearing your browser data removes all of this.
        </p>
      </>
    ),
  },
  {
    id: 'sharing',
    heading: 'Who else sees it',
    body: (
      <>
        <p>
          Other users see what you choose to show: your username, avatar, age, gender, description, hobbies, level and rating. We share data
          only with the services that run Parley for us, under contracts that limit them to that job:
        </p>
        <ul>
          <li>
            <strong>Stripe</strong> processes payments, subscriptions and donations, under its own privacy policy for card data.
          </li>
          <li>
            <strong>Google</strong>, only if you choose to sign in with Google.
          </li>
          <li>
            <strong>Our hosting, messaging and relay providers</strong>, which store or pass on data only as needed to run the service.
          </li>
        </ul>
        <p>
          We disclose data to authorities only when the law requires it, or when we believe in good faith that someone’s life or safety is
          at risk. Some of these providers may process data outside your country; where they do, we rely on the safeguards the law provides,
          such as standard contractual clauses.
        </p>
      </>
    ),
  },
  {
    id: 'your-rights',
    heading: 'Your rights and deleting your account',
    body: (
      <>
        <p>
          You can ask us at any time to show you the data we hold about you, to correct it, to give you a copy in a portable format, to
          restrict or object to a use of it, or to delete it.
        </p>
        <p>
          <strong>Deleting your account</strong>: ask through <DocLink to="/contact-support">contact support</DocLink> (topic “My account or
          signing in”), or use the delete option in your settings where your app offers it. We remove your account, profile, sessions,
          friends, blocks and purchases within 30 days. We keep only what the law obliges us to keep (payment records) and, for a banned
          account, the minimum needed to stop the same person returning.
        </p>
        <p>
          If you think we have handled your data wrongly, please tell us first; you also have the right to complain to your data protection
          authority.
        </p>
      </>
    ),
  },
  {
    id: 'security',
    heading: 'Security',
    body: (
      <p>
        Passwords are hashed with argon2id. Sign-in tokens are short-lived and held in memory; the long-lived refresh token sits in an
        httpOnly cookie, rotates on every use, and is stored only as a hash. Traffic is encrypted in transit. No system is perfectly secure,
        so if you notice something wrong, tell us straight away.
      </p>
    ),
  },
  {
    id: 'age',
    heading: 'Adults only',
    body: (
      <p>
        Parley is for people aged 18 and over. We do not knowingly collect data from anyone younger. If we learn that an account belongs to
        someone under 18, we close it and delete its data. If you believe a child is using Parley, please report the account or write to us.
      </p>
    ),
  },
  {
    id: 'changes',
    heading: 'Changes to this policy',
    body: (
      <p>
        When we change this policy we update the date at the top. If a change matters for how your data is used, we tell you in the app
        before it takes effect.
      </p>
    ),
  },
];

export default function PrivacyPolicyPage() {
  return (
    <LegalDocument
      title="Privacy Policy"
      summary={
        <p>
          The short version: we keep what Parley needs to run and to keep people safe, we don’t store your one-on-one chats, your video
          never touches our servers unencrypted, we use no tracking cookies, and you can delete your account whenever you like.
        </p>
      }
      sections={sections}
    />
  );
}
