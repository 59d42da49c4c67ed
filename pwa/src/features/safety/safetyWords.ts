import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { REASON_LABELS } from '../../components/conversation/reportReasons';
import type { ModerationActionKind, ReportContext, ReportEncounter, ReportReason, RuleId } from '@parley/contract/safety';

/** The words of the safety contract (its rules, reasons, places and decisions) in the interface language. */
const RULES: Record<RuleId, MessageDescriptor> = {
  respect: msg`Be kind, be real`,
  adults: msg`Adults only`,
  nudity: msg`No nudity or sexual content`,
  harassment: msg`No harassment or bullying`,
  hate: msg`No hate`,
  violence: msg`No threats or violence`,
  spam: msg`No scams, spam or advertising`,
  bots: msg`No bots or automation`,
  illegal: msg`Nothing illegal`,
};
export const ruleTitle = (rule: RuleId) => i18n._(RULES[rule]);
export const isRule = (rule: string | null): rule is RuleId => rule !== null && rule in RULES;

/** One table of reason labels for the report form, the moderators' cases and a stream's record. */
export const reasonLabel = (reason: ReportReason) => i18n._(REASON_LABELS[reason]);

/** Where a report was made, as people name the places of Parley (not the code's names). */
const CONTEXTS: Record<ReportContext, MessageDescriptor> = {
  textChat: msg`Text chat`,
  videoChat: msg`Video chat`,
  group: msg`Group room`,
  direct: msg`Direct message`,
  live: msg`Live chat`,
  profile: msg`Profile`,
};
export const contextLabel = (context: ReportContext) => i18n._(CONTEXTS[context]);

/** A moderator's choice, as the button that makes it says. */
const ACTIONS: Record<ModerationActionKind, MessageDescriptor> = {
  dismiss: msg`Dismiss`,
  warn: msg`Warn`,
  suspend: msg`Suspend`,
  ban: msg`Ban`,
};
export const actionLabel = (action: ModerationActionKind) => i18n._(ACTIONS[action]);

/** A decision taken, as the history and the reports list it; `role` is an administrator's change of role. */
const DONE: Record<string, MessageDescriptor> = {
  dismiss: msg`Dismissed`,
  warn: msg`Warned`,
  suspend: msg`Suspended`,
  ban: msg`Banned`,
  appealGranted: msg`Appeal granted`,
  appealRefused: msg`Appeal refused`,
  role: msg`Role changed`,
};
export const decisionLabel = (action: string) => (DONE[action] ? i18n._(DONE[action]) : action);

const ENCOUNTERS: Record<ReportEncounter, MessageDescriptor> = {
  chat: msg`had a 1:1 chat with them`,
  group: msg`shares a group room with them`,
  direct: msg`had direct messages from them`,
  live: msg`watched their live stream`,
};
export const encounterLabel = (encounter: ReportEncounter) => i18n._(ENCOUNTERS[encounter]);

/** The topics of /contact-support (features/support offers them), as the support queue shows them. */
const TOPICS: Record<string, MessageDescriptor> = {
  account: msg`My account or signing in`,
  safety: msg`Safety: report a person or a problem`,
  billing: msg`Payments, premium or donations`,
  bug: msg`Something is not working`,
  other: msg`Something else`,
};
export const topicLabel = (topic: string) => (TOPICS[topic] ? i18n._(TOPICS[topic]) : topic);
