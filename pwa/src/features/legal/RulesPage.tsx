import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { DocLink, LegalDocument, type LegalSection } from './LegalDocument';

const sections: LegalSection[] = [
  {
    id: 'respect',
    heading: msg`Be kind, be real`,
    body: (
      <>
        <p>
          <Trans>Everyone here came to meet someone new. Greet people the way you would like to be greeted.</Trans>
        </p>
        <ul>
          <li>
            <Trans>Be yourself. No fake ages, fake genders or pretending to be someone else.</Trans>
          </li>
          <li>
            <Trans>Disagree without insults. Leave a chat rather than escalate it; the skip button is always there.</Trans>
          </li>
          <li>
            <Trans>A “no” ends it. If someone does not want to continue, or does not want to turn on the camera, respect that.</Trans>
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'adults',
    heading: msg`Adults only`,
    body: (
      <p>
        <Trans>
          Parley is for people aged 18 and over. Anyone who appears to be under 18 on camera, or says they are, is reported and removed.
          Never bring a child into a chat or a video call.
        </Trans>
      </p>
    ),
  },
  {
    id: 'not-allowed',
    heading: msg`Never allowed`,
    body: (
      <ul>
        <li>
          <Trans>
            <strong>Nudity and sexual content</strong>, including on camera, in your avatar or background image, and sexual messages to
            people who did not ask for them.
          </Trans>
        </li>
        <li>
          <Trans>
            <strong>Harassment and bullying</strong>: insults, stalking, unwanted repeated contact, or pushing someone for personal details.
          </Trans>
        </li>
        <li>
          <Trans>
            <strong>Hate</strong>: attacks on people for their race, ethnicity, nationality, religion, disability, sex, gender identity or
            sexual orientation.
          </Trans>
        </li>
        <li>
          <Trans>
            <strong>Threats and violence</strong>, including showing weapons to intimidate, and encouraging self-harm or suicide.
          </Trans>
        </li>
        <li>
          <Trans>
            <strong>Scams, spam and advertising</strong>: links to other sites for money, selling things, begging for payment, or recruiting
            people elsewhere.
          </Trans>
        </li>
        <li>
          <Trans>
            <strong>Bots and automation</strong>: scripts, pre-recorded video passed off as a live camera, or mass messages.
          </Trans>
        </li>
        <li>
          <Trans>
            <strong>Anything illegal</strong>, such as drugs for sale, piracy or sharing someone’s private images.
          </Trans>
        </li>
      </ul>
    ),
  },
  {
    id: 'privacy',
    heading: msg`Protect privacy, yours and theirs`,
    body: (
      <ul>
        <li>
          <Trans>Do not record, screenshot or share anyone’s video, image or messages without their clear consent.</Trans>
        </li>
        <li>
          <Trans>Do not post other people’s personal details (names, addresses, phone numbers, workplaces, social accounts).</Trans>
        </li>
        <li>
          <Trans>
            Be careful with your own: people you just met do not need your address, passwords or bank details. We will never ask for your
            password.
          </Trans>
        </li>
      </ul>
    ),
  },
  {
    id: 'rooms-and-streams',
    heading: msg`Group rooms and live streams`,
    body: (
      <ul>
        <li>
          <Trans>The same rules apply in rooms and streams as in one-on-one chats, and in everything you write in your profile.</Trans>
        </li>
        <li>
          <Trans>Room owners may remove people from their room; they may not use that power to harass anyone.</Trans>
        </li>
        <li>
          <Trans>Keep a room to its topic and category. Do not flood the chat.</Trans>
        </li>
      </ul>
    ),
  },
  {
    id: 'reporting',
    heading: msg`Reporting and blocking`,
    body: (
      <>
        <p>
          <Trans>
            If someone breaks these rules, press <strong>Report</strong> in the chat, choose the reason and add a line about what happened.
            Reports are private: the person is never told who reported them. Our moderators review every report.
          </Trans>
        </p>
        <p>
          <Trans>
            <strong>Block</strong> anyone you never want to meet again; Parley will not match you with them. If you feel unsafe, leave the
            chat first and report afterwards. For anything a report can’t cover, write to <DocLink to="/contact-support">support</DocLink>.
            If someone is in immediate danger, call your local emergency number.
          </Trans>
        </p>
        <p>
          <Trans>False or malicious reports are themselves a breach of these rules.</Trans>
        </p>
      </>
    ),
  },
  {
    id: 'consequences',
    heading: msg`What happens when rules are broken`,
    body: (
      <>
        <p>
          <Trans>We decide in proportion to what happened and to the account’s history:</Trans>
        </p>
        <ol>
          <li>
            <Trans>A warning, and removal of the content.</Trans>
          </li>
          <li>
            <Trans>A temporary suspension of chat or of the whole account.</Trans>
          </li>
          <li>
            <Trans>A permanent ban. Creating a new account after a ban is not allowed.</Trans>
          </li>
        </ol>
        <p>
          <Trans>
            Sexual content involving anyone who may be a minor, credible threats and serious harassment lead straight to a permanent ban
            and, where the law requires it, a report to the authorities. You can ask for a decision to be reviewed through{' '}
            <DocLink to="/contact-support">support</DocLink>.
          </Trans>
        </p>
      </>
    ),
  },
];

export default function RulesPage() {
  return (
    <LegalDocument
      title={msg`Community Rules`}
      summary={
        <p>
          <Trans>
            Parley works because people treat each other well. These rules apply everywhere in the app: text chat, video chat, group rooms,
            live streams and your profile. They are part of our <DocLink to="/terms-of-service">Terms of Service</DocLink>.
          </Trans>
        </p>
      }
      sections={sections}
    />
  );
}
