import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { DocLink, LegalDocument, type LegalSection } from './LegalDocument';

const sections: LegalSection[] = [
  {
    id: 'agreement',
    heading: msg`Agreeing to these terms`,
    body: (
      <>
        <p>
          <Trans>
            These terms are the agreement between you and Parley for using the Parley app and website. By creating an account, or by
            continuing with Google, you accept them together with the <DocLink to="/rules">Community Rules</DocLink>. The{' '}
            <DocLink to="/privacy-policy">Privacy Policy</DocLink> explains how we handle your data.
          </Trans>
        </p>
        <p>
          <Trans>If you do not agree, please do not use Parley.</Trans>
        </p>
      </>
    ),
  },
  {
    id: 'eligibility',
    heading: msg`Who can use Parley`,
    body: (
      <ul>
        <li>
          <Trans>
            You must be at least 18 years old. Parley puts you in live conversations with strangers, including on camera, and is not for
            children.
          </Trans>
        </li>
        <li>
          <Trans>
            You must be allowed to use the service under the laws that apply to you, and must not have been banned from Parley before.
          </Trans>
        </li>
        <li>
          <Trans>The age and gender you give us must be true; matching filters and other people’s safety depend on them.</Trans>
        </li>
      </ul>
    ),
  },
  {
    id: 'your-account',
    heading: msg`Your account`,
    body: (
      <ul>
        <li>
          <Trans>One person, one account. Accounts are personal and may not be sold, shared or handed over.</Trans>
        </li>
        <li>
          <Trans>
            Keep your password to yourself. You are responsible for what happens under your account until you tell us it has been
            compromised.
          </Trans>
        </li>
        <li>
          <Trans>Automated accounts, scripts and bots are not allowed; Parley is for people.</Trans>
        </li>
        <li>
          <Trans>Your username must not impersonate anyone or break the Community Rules.</Trans>
        </li>
      </ul>
    ),
  },
  {
    id: 'conduct',
    heading: msg`How you behave on Parley`,
    body: (
      <>
        <p>
          <Trans>
            The <DocLink to="/rules">Community Rules</DocLink> are part of these terms. In short: treat people with respect; no nudity,
            sexual content or harassment; no hate, threats or violence; nothing involving minors; no spam, scams or advertising; no
            recording or sharing other people’s chats or images without their consent; and nothing illegal.
          </Trans>
        </p>
        <p>
          <Trans>
            You are responsible for what you say, show and share. Do not share personal details (your address, phone number, passwords) with
            people you have just met.
          </Trans>
        </p>
      </>
    ),
  },
  {
    id: 'content',
    heading: msg`What you share`,
    body: (
      <>
        <p>
          <Trans>
            You keep ownership of what you post, such as your profile text, avatar, background image and messages in group rooms. You give
            us permission to store, show and deliver it to the people it is meant for, only as far as needed to run Parley. That permission
            ends when you delete the content or your account, except for copies we must keep for a report or by law.
          </Trans>
        </p>
        <p>
          <Trans>Only share what you have the right to share.</Trans>
        </p>
      </>
    ),
  },
  {
    id: 'safety',
    heading: msg`Reporting, blocking and moderation`,
    body: (
      <>
        <p>
          <Trans>
            Every chat has a report button. Reports go to our moderation team, who review each one. You can also block anyone; you will not
            be matched with them again.
          </Trans>
        </p>
        <p>
          <Trans>
            When someone breaks these terms or the rules, we may remove content, warn them, limit features, suspend the account for a time,
            or ban it for good, depending on how serious it is and whether it has happened before. Serious harm, anything involving a minor,
            or credible threats lead to an immediate ban and, where the law requires, a report to the authorities.
          </Trans>
        </p>
        <p>
          <Trans>
            If you think we got a decision about your account wrong, tell us through{' '}
            <DocLink to="/contact-support">contact support</DocLink>; a different person from our team will look at it again.
          </Trans>
        </p>
      </>
    ),
  },
  {
    id: 'payments',
    heading: msg`Premium membership, purchases and donations`,
    body: (
      <>
        <ul>
          <li>
            <Trans>Payments are handled by Stripe. Prices are shown before you pay, including any tax we must charge.</Trans>
          </li>
          <li>
            <Trans>
              Premium memberships renew automatically at the end of each billing cycle (monthly or yearly) until you cancel. You can cancel
              at any time; you keep premium until the end of the period you paid for.
            </Trans>
          </li>
          <li>
            <Trans>
              Gold, XP, levels and store items are part of the game inside Parley. They have no cash value, cannot be exchanged for money,
              and may be adjusted if they were gained through a bug or by breaking the rules.
            </Trans>
          </li>
          <li>
            <Trans>Donations are voluntary gifts that support Parley’s development; they do not buy any extra feature.</Trans>
          </li>
          <li>
            <Trans>
              Where the law gives you a right to withdraw or to a refund, you have it. Otherwise payments for a period already started are
              not refunded, but if something went wrong, write to us and we will look at it fairly.
            </Trans>
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'service',
    heading: msg`The service itself`,
    body: (
      <>
        <p>
          <Trans>
            We work to keep Parley available and safe, and we keep adding features, so parts of it will change over time. We may pause the
            service for maintenance, and features may come and go. We will tell you in advance about changes that take something away you
            paid for.
          </Trans>
        </p>
        <p>
          <Trans>
            Other users are not our employees and we do not check what they say before they say it. Be careful about meeting anyone you met
            on Parley in person.
          </Trans>
        </p>
      </>
    ),
  },
  {
    id: 'ending',
    heading: msg`Ending the agreement`,
    body: (
      <p>
        <Trans>
          You can stop using Parley and delete your account at any time. We may suspend or close an account that breaks these terms, as
          described above. If we close Parley altogether, we will give you at least 30 days’ notice and refund the unused part of any paid
          membership.
        </Trans>
      </p>
    ),
  },
  {
    id: 'liability',
    heading: msg`Liability`,
    body: (
      <>
        <p>
          <Trans>
            Parley is provided as it is. As far as the law allows, we are not liable for what other users say or do, for indirect or
            unforeseeable losses, or for interruptions beyond our reasonable control. Where we are liable, our total liability is limited to
            the amount you paid us in the twelve months before the claim.
          </Trans>
        </p>
        <p>
          <Trans>
            Nothing in these terms limits liability that the law does not allow to be limited, or takes away rights you have as a consumer.
          </Trans>
        </p>
      </>
    ),
  },
  {
    id: 'changes',
    heading: msg`Changes to these terms`,
    body: (
      <p>
        <Trans>
          We may update these terms as Parley grows. The date at the top shows the latest version. If a change is significant, we tell you
          in the app at least 14 days before it applies; if you keep using Parley after that, the new terms apply.
        </Trans>
      </p>
    ),
  },
  {
    id: 'contact',
    heading: msg`Contact`,
    body: (
      <p>
        <Trans>
          Questions about these terms? Write to us through <DocLink to="/contact-support">contact support</DocLink> and a person from our
          team will answer.
        </Trans>
      </p>
    ),
  },
];

export default function TermsOfServicePage() {
  return (
    <LegalDocument
      title={msg`Terms of Service`}
      summary={
        <p>
          <Trans>
            Parley is for adults who want to meet new people and treat them well. These terms explain what you can expect from us, what we
            expect from you, and what happens when someone breaks the rules.
          </Trans>
        </p>
      }
      sections={sections}
    />
  );
}
