import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import type { RoomMessage } from '@parley/contract/rooms';
import type { StoredRoomConnection, StoredRoomState } from '../../realtime/storedRoom';
import type { ReportChoice } from '../../realtime/reportEvidence';
import { focusRing } from '../ui/buttonStyles';
import { ConversationView } from './ConversationView';
import { MessageRow, type MessageActions, type ModeratorAction } from './MessageRow';
import type { LoadLinkPreview } from './LinkPreviewCard';
import type { ConversationMedia } from './media';
import { Plural, Trans, useLingui } from '@lingui/react/macro';

const headerButton = `rounded-lg border border-slate-400 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-100 ${focusRing}`;

/**
 * A thread of a group room: its root, its replies and a composer of its own, on the one
 * conversation view. Beside the room on a wide screen; over it (`overlay`) on a phone, where the
 * room stays underneath and comes back when the thread closes.
 */
export function ThreadPanel({
  roomName,
  state,
  thread,
  myId,
  overlay,
  onClose,
  blocked,
  writeBlocked,
  canModerate,
  moderation,
  onReport,
  linkPreview,
  media,
}: {
  roomName: string;
  state: StoredRoomState;
  thread: StoredRoomConnection;
  myId: string;
  overlay: boolean;
  onClose(): void;
  /** People this user blocked: their replies are not shown, as in the room. */
  blocked: ReadonlySet<string>;
  writeBlocked: string | null;
  canModerate: (senderId: string) => boolean;
  moderation: (m: RoomMessage) => ModeratorAction[];
  onReport: (m: RoomMessage, choice: ReportChoice) => Promise<void>;
  linkPreview: LoadLinkPreview | undefined;
  media: ConversationMedia | undefined;
}) {
  const { t } = useLingui();
  const title = useRef<HTMLHeadingElement>(null);
  // Opening a thread takes the reader to it.
  useEffect(() => title.current?.focus(), []);
  const shown = useMemo(
    () => (blocked.size === 0 ? state : { ...state, messages: state.messages.filter((m) => !blocked.has(m.senderId)) }),
    [state, blocked],
  );
  const root = state.root;
  const rootActions: MessageActions = useMemo(
    () => ({ onReact: (m, emoji, on) => void thread.react(m.id, emoji, on), onReport }),
    [thread, onReport],
  );
  const onKeyDown = (e: KeyboardEvent) => {
    const field = (e.target as HTMLElement).closest('textarea, input');
    if (e.key === 'Escape' && !field) onClose();
  };
  const replies = root?.thread?.replies ?? 0;

  return (
    <section
      aria-labelledby="thread-title"
      data-testid="thread-panel"
      onKeyDown={onKeyDown}
      className={
        overlay
          ? 'absolute inset-0 z-30 flex flex-col bg-slate-50'
          : 'flex w-96 max-w-[45%] shrink-0 flex-col border-s border-slate-200 bg-slate-50'
      }
    >
      <header className="flex shrink-0 items-center justify-between gap-2 border-b border-slate-200 bg-white px-3 py-2">
        <h2 id="thread-title" ref={title} tabIndex={-1} className="min-w-0 truncate font-bold text-slate-900 focus-visible:outline-none">
          <Trans>Thread</Trans>
        </h2>
        <div className="flex shrink-0 items-center gap-2">
          <button
            type="button"
            aria-pressed={state.following}
            disabled={state.phase !== 'open'}
            onClick={() => void thread.follow(!state.following)}
            className={`${headerButton} ${state.following ? 'border-indigo-700 bg-indigo-50 text-indigo-900' : ''}`}
          >
            {state.following && <span aria-hidden="true">✓ </span>}
            <Trans>Follow thread</Trans>
          </button>
          <button type="button" onClick={onClose} className={headerButton} aria-label={t`Close thread`}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
      </header>
      {state.phase === 'refused' && state.refusal ? (
        <p role="alert" className="p-4 text-slate-800">
          {state.refusal.message}
        </p>
      ) : (
        <ConversationView
          state={shown}
          room={thread}
          myId={myId}
          label={t`Thread in ${roomName}`}
          placeholder={t`Reply in thread`}
          composerLabel={t`Reply in thread`}
          writeBlocked={writeBlocked}
          canModerate={canModerate}
          moderation={moderation}
          onReport={onReport}
          links="open"
          linkPreview={linkPreview}
          media={media}
          typing={false}
          testIds={{ list: 'thread-messages' }}
          regionLabel={t`Thread messages`}
          intro={
            root && (
              <div className="mb-3 grid gap-2 border-b border-slate-200 pb-3">
                <ul aria-label={t`Thread started by ${root.senderName}`}>
                  <MessageRow
                    message={root}
                    myId={myId}
                    canModerate={false}
                    seenBy={null}
                    actions={rootActions}
                    linkPreview={linkPreview}
                  />
                </ul>
                <p className="text-center text-sm text-slate-600">
                  {replies === 0 ? <Trans>No replies yet.</Trans> : <Plural value={replies} one="# reply" other="# replies" />}
                </p>
              </div>
            )
          }
        />
      )}
    </section>
  );
}
