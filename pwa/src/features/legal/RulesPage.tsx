import { DocLink, LegalDocument, type LegalSection } from './LegalDocument';

const sections: LegalSection[] = [
  {
    id: 'respect',
    heading: 'Be kind, be real',
    body: (
      <>
        <p>Everyone here came to meet someone new. Greet people the way you would like to be greeted.</p>
        <ul>
          <li>Be yourself. No fake ages, fake genders or pretending to be someone else.</li>
          <li>Disagree without insults. Leave a chat rather than escalate it; the skip button is always there.</li>
          <li>A “no” ends it. If someone does not want to continue, or does not want to turn on the camera, respect that.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'adults',
    heading: 'Adults only',
    body: (
      <p>
        Parley is for people aged 18 and over. Anyone who appears to be under 18 on camera, or says they are, is reported and removed. Never
        bring a child into a chat or a video call.
      </p>
    ),
  },
  {
    id: 'not-allowed',
    heading: 'Never allowed',
    body: (
      <ul>
        <li>
          <strong>Nudity and sexual content</strong>, including on camera, in your avatar or background image, and sexual messages to people
          who did not ask for them.
        </li>
        <li>
          <strong>Harassment and bullying</strong>: insults, stalking, unwanted repeated contact, or pushing someone for personal details.
        </li>
        <li>
          <strong>Hate</strong>: attacks on people for their race, ethnicity, nationality, religion, disability, sex, gender identity or
          sexual orientation.
        </li>
        <li>
          <strong>Threats and violence</strong>, including showing weapons to intimidate, and encouraging self-harm or suicide.
        </li>
        <li>
          <strong>Scams, spam and advertising</strong>: links to other sites for money, selling things, begging for payment, or recruiting
          people elsewhere.
        </li>
        <li>
          <strong>Bots and automation</strong>: scripts, pre-recorded video passed off as a live camera, or mass messages.
        </li>
        <li>
          <strong>Anything illegal</strong>, such as drugs for sale, piracy or sharing someone’s private images.
        </li>
      </ul>
    ),
  },
  {
    id: 'privacy',
    heading: 'Protect privacy, yours and theirs',
    body: (
      <ul>
        <li>Do not record, screenshot or share anyone’s video, image or messages without their clear consent.</li>
        <li>Do not post other people’s personal details (names, addresses, phone numbers, workplaces, social accounts).</li>
        <li>
          Be careful with your own: people you just met do not need your address, passwords or bank details. We will never ask for your
          password.
        </li>
      </ul>
    ),
  },
  {
    id: 'rooms-and-streams',
    heading: 'Group rooms and live streams',
    body: (
      <ul>
        <li>The same rules apply in rooms and streams as in one-on-one chats, and in everything you write in your profile.</li>
        <li>Room owners may remove people from their room; they may not use that power to harass anyone.</li>
        <li>Keep a room to its topic and category. Do not flood the chat.</li>
      </ul>
    ),
  },
  {
    id: 'reporting',
    heading: 'Reporting and blocking',
    body: (
      <>
        <p>
          If someone breaks these rules, press <strong>Report</strong> in the chat, choose the reason and add a line about what happened.
          Reports are private: the person is never told who reported them. Our moderators review every report.
        </p>
        <p>
          <strong>Block</strong> anyone you never want to meet again; Parley will not match you with them. If you feel unsafe, leave the
          chat first and report afterwards. For anything a report can’t cover, write to <DocLink to="/contact-support">support</DocLink>. If
          someone is in immediate danger, call your local emergency number.
        </p>
        <p>False or malicious reports are themselves a breach of these rules.</p>
      </>
    ),
  },
  {
    id: 'consequences',
    heading: 'What happens when rules are broken',
    body: (
      <>
        <p>We decide in proportion to what happened and to the account’s history:</p>
        <ol>
          <li>A warning, and removal of the content.</li>
          <li>A temporary suspension of chat or of the whole account.</li>
          <li>A permanent ban. Creating a new account after a ban is not allowed.</li>
        </ol>
        <p>
          Sexual content involving anyone who may be a minor, credible threats and serious harassment lead straight to a permanent ban and,
          where the law requires it, a report to the authorities. You can ask for a decision to be reviewed through{' '}
          <DocLink to="/contact-support">support</DocLink>.
        </p>
      </>
    ),
  },
];

export default function RulesPage() {
  return (
    <LegalDocument
      title="Community Rules"
      summary={
        <p>
          Parley works because people treat each other well. These rules apply everywhere in the app: text chat, video chat, group rooms,
          live streams and your profile. They are part of our <DocLink to="/terms-of-service">Terms of Service</DocLink>.
        </p>
      }
      sections={sections}
    />
  );
}
