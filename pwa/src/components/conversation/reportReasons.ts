import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ReportReason } from '@parley/contract/safety';

/** A report reason in the interface language (the report form, a stream's record). */
export const REASON_LABELS: Record<ReportReason, MessageDescriptor> = {
  nudity: msg`Nudity or sexual content`,
  harassment: msg`Harassment or bullying`,
  hate: msg`Hate`,
  spam: msg`Spam or a bot`,
  underage: msg`Under 18`,
  violence: msg`Threats or violence`,
  other: msg`Something else`,
};
