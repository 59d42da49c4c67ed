import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector, useCurrentUser } from '../../store/hooks';
import { focusRing } from '../../components/ui/buttonStyles';
import { useViewportLayout } from '../../components/layout/useViewportLayout';
import { useOnlinePresence, useSocketStatus } from '../../realtime/socket';
import { toast } from '../../lib/toast';
import { usePopularTopicsQuery } from './chatApi';
import { useChatBackgroundQuery, useGetRecentPartnersQuery, usePartnerActions, useStoredRoomDeps, useStrangerMedia } from '../../store/api';
import { ChatBackground } from '../../components/conversation/ChatBackground';
import { PartnerActions } from '../../components/conversation/PartnerActions';
import { chatActions } from './chatSlice';
import { textChatRoom } from './textChatRoom';
import type { RoomNotify } from '../../realtime/roomConnection';
import { connectionLine } from '../../realtime/roomState';
import { useStrangerRoom } from '../../realtime/strangerRoom';
import type { ComposerHandle } from '../../components/conversation/Composer';
import { StrangerConversation } from '../../components/conversation/StrangerConversation';
import { PicturesConsent } from '../../components/conversation/PicturesConsent';
import { useChatPictures } from '../../components/conversation/chatPictures';
import { PartnerCard } from '../../components/conversation/PartnerCard';
import { ReportAction } from '../../components/conversation/ReportAction';
import { useReportPartner } from './useReportPartner';
import { ChatComposer } from './components/ChatComposer';
import { FilterPanel } from './components/FilterPanel';
import { SearchStatusNotice } from '../../components/conversation/SearchStatusNotice';
import { LanguageExchangeNote } from '../../components/conversation/LanguageExchangeNote';
import { widened } from '../../realtime/widenFilters';
import { searchPreferencesActions } from '../../realtime/searchPreferences';
import { useTouchScreen } from '../../lib/touch';
import { FrameToggle } from '../../components/layout/FrameToggle';
import { Trans, useLingui } from '@lingui/react/macro';

// Two presses of Escape within this window skip to the next stranger.
const DOUBLE_ESCAPE_MS = 1500;

const notify: RoomNotify = (n) => toast({ ...n, variant: 'error' });

const primary = `inline-flex h-11 items-center justify-center rounded-lg bg-indigo-700 px-5 text-base font-semibold text-white hover:bg-indigo-800 disabled:opacity-50 ${focusRing}`;
/** Next on a touch screen: large, filled, where the thumb rests. */
const nextOnTouch = `inline-flex h-12 min-w-24 shrink-0 items-center justify-center rounded-xl bg-slate-900 px-5 text-lg font-bold text-white hover:bg-slate-800 ${focusRing}`;
const secondary = `inline-flex h-11 items-center justify-center rounded-lg border border-slate-400 bg-white px-4 text-base font-semibold text-slate-800 hover:bg-slate-100 disabled:opacity-50 ${focusRing}`;

/** /textchat: pick filters, meet a stranger, talk, skip to the next one. */
export default function TextChatPage() {
  const { t } = useLingui();
  const dispatch = useAppDispatch();
  const chat = useAppSelector((s) => s.chat);
  const {
    receiver,
    roomId,
    isSearching,
    isRequeuing,
    isPeerDisconnected,
    partnerReported,
    userIsDisconnected,
    noCommonTopic,
    exchange,
    emojiPickerOpen,
  } = chat;
  const socketStatus = useSocketStatus();
  const online = useOnlinePresence();
  const connected = socketStatus === 'connected';
  const { isMobile } = useViewportLayout();
  const touch = useTouchScreen();
  const filters = useAppSelector((s) => s.searchPreferences.chatFilters);
  const [params, setParams] = useSearchParams();
  const startAsked = params.get('start') === '1';
  const { data: popular } = usePopularTopicsQuery();
  const { data: background } = useChatBackgroundQuery();
  const composer = useRef<ComposerHandle>(null);
  const stopButton = useRef<HTMLButtonElement>(null);
  const findNewButton = useRef<HTMLButtonElement>(null);
  const lastEscape = useRef(0);
  const [escapeHint, setEscapeHint] = useState(false);

  const inRoom = !!roomId;
  const { phase } = chat;
  const line = connectionLine(chat, socketStatus);
  const [filtersOpenIn, setFiltersOpenIn] = useState<string | null>(null);
  const showFilters = !isMobile || phase === 'idle' || filtersOpenIn === phase;

  // The button pressed goes away with the conversation, so focus moves on to Stop.
  const start = useCallback(() => {
    dispatch(textChatRoom.startSearch(notify));
    requestAnimationFrame(() => stopButton.current?.focus());
  }, [dispatch]);
  const skip = useCallback(() => {
    dispatch(textChatRoom.next(notify));
    requestAnimationFrame(() => stopButton.current?.focus());
  }, [dispatch]);

  // Nobody online fits the filters: one tap opens them to anyone of any age and searches again.
  const widen = useCallback(() => {
    dispatch(searchPreferencesActions.setChatFilters(widened(filters)));
    dispatch(textChatRoom.startSearch(notify));
  }, [dispatch, filters]);
  // Few online and the one searching may be a recent partner: meet them again without this side's pause.
  const meetAgain = useCallback(() => dispatch(textChatRoom.startSearch(notify, { keepConversation: true, meetAgain: true })), [dispatch]);

  // Came from "Start a conversation" or "Start a text chat" (`?start=1`): the search starts as soon
  // as the connection is up, once (the address loses the request, so a reload does not search again).
  useEffect(() => {
    if (!startAsked || !connected) return;
    setParams({}, { replace: true });
    if (phase === 'idle') start();
  }, [startAsked, connected, phase, setParams, start]);

  // Server events → chat state for as long as the page is open; leaving ends any chat or search.
  useEffect(() => {
    const detach = dispatch(textChatRoom.attach(notify));
    return () => {
      detach();
      dispatch(textChatRoom.leave({ forget: true }));
    };
  }, [dispatch]);

  useEffect(() => {
    if (popular) dispatch(chatActions.setMostPopularTopics(popular));
  }, [dispatch, popular]);

  // Focus follows the conversation: the message box on a match, the way on when the partner leaves.
  useEffect(() => {
    if (roomId) composer.current?.focus();
  }, [roomId]);
  useEffect(() => {
    if ((isPeerDisconnected || partnerReported) && !isSearching) findNewButton.current?.focus();
  }, [isPeerDisconnected, partnerReported, isSearching]);
  const chatOver = isPeerDisconnected || partnerReported;

  useEffect(() => {
    function onKeyDown(e: KeyboardEvent) {
      // An Escape that cancels an IME composition is the input method's, not a skip.
      if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing || emojiPickerOpen) return;
      if (!inRoom && !chatOver) return;
      const now = Date.now();
      if (now - lastEscape.current <= DOUBLE_ESCAPE_MS) {
        lastEscape.current = 0;
        setEscapeHint(false);
        skip();
      } else {
        lastEscape.current = now;
        setEscapeHint(true);
      }
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [inRoom, chatOver, emojiPickerOpen, skip]);

  useEffect(() => {
    if (!escapeHint) return;
    // The window runs from when the hint is on screen: a slow device that paints it late still
    // gives the person its whole time to press again.
    if (lastEscape.current) lastEscape.current = Date.now();
    const t = setTimeout(() => setEscapeHint(false), DOUBLE_ESCAPE_MS);
    return () => clearTimeout(t);
  }, [escapeHint]);

  const partnerName = receiver?.username ?? t`Stranger`;
  const myId = useCurrentUser()?.userId ?? '';
  const [conversation, room] = useStrangerRoom(chat, useStoredRoomDeps(chat.conversationRoomId, 'direct', false));
  // Stable, so that a keystroke in the composer does not render the conversation again.
  const report = useReportPartner({ messages: conversation.messages, myId });
  const send = useCallback((text: string) => room?.send(text), [room]);
  const typing = useCallback((on: boolean) => room?.typing(on), [room]);
  const partnerHere = conversation.people.some((p) => p.userId === receiver?.userId && p.here);
  const media = useStrangerMedia();
  const pictures = useChatPictures({ state: conversation, room: inRoom ? room : null, myId, partnerId: receiver?.userId ?? null });
  // The partner's badge and name colour come with the recent partners the server recorded at the match.
  const { data: recentPartners } = useGetRecentPartnersQuery(undefined, { skip: !receiver });
  const partnerStyle = recentPartners?.find((p) => p.userId === receiver?.userId)?.nameStyle;
  const partnerCard = useMemo(
    () =>
      receiver ? (
        <>
          <PartnerCard receiver={receiver} nameStyle={partnerStyle} noCommonTopic={noCommonTopic} />
          <LanguageExchangeNote exchange={exchange} receiver={receiver} />
          <PartnerActions key={receiver.userId} username={receiver.username} useActions={usePartnerActions} />
        </>
      ) : null,
    [receiver, partnerStyle, noCommonTopic, exchange],
  );

  // Between the conversation and the message box (or under the lobby): who the chat is with and
  // Report, the connection, the partner leaving, the search.
  const notices = (
    <>
      {/* Report stays on screen, above the message box, however far the conversation scrolls. */}
      {receiver && !partnerReported && (
        <div className="flex items-center justify-between gap-3 border-t border-slate-200 bg-white px-3 py-1.5">
          <p className="min-w-0 truncate text-sm text-slate-700">
            {inRoom ? (
              <Trans>
                Chatting with <span className="font-semibold text-slate-900">{partnerName}</span>
              </Trans>
            ) : (
              <Trans>
                You talked with <span className="font-semibold text-slate-900">{partnerName}</span>
              </Trans>
            )}
          </p>
          <ReportAction partnerName={receiver.username} onSend={report} />
        </div>
      )}
      <div aria-live="polite" className="px-4 text-sm">
        {escapeHint && (
          <p className="py-1 text-slate-700">
            <Trans>Press Esc again to skip to the next stranger.</Trans>
          </p>
        )}
      </div>
      {inRoom && (line === 'reconnecting' || line === 'partnerAway') && (
        <div role="status" className="mx-3 mb-2 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
          {line === 'reconnecting' ? (
            <>
              <p className="font-semibold">
                <Trans>Connection lost. Reconnecting…</Trans>
              </p>
              <p className="text-sm">
                <Trans>Your chat is kept for a few seconds while Parley gets you back.</Trans>
              </p>
            </>
          ) : (
            <>
              <p className="font-semibold">
                <Trans>Stranger lost their connection</Trans>
              </p>
              <p className="text-sm">
                <Trans>Waiting a few seconds for them to come back. What you send now goes when they are back.</Trans>
              </p>
            </>
          )}
        </div>
      )}
      {receiver && isPeerDisconnected && (
        <div
          role="status"
          className="mx-3 mb-2 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3"
        >
          <p className="font-semibold text-amber-950">
            <Trans>Stranger has disconnected</Trans>
          </p>
          {isSearching ? (
            <p className="text-sm text-amber-950">{isRequeuing ? t`Finding someone new…` : t`Searching…`}</p>
          ) : (
            <button ref={findNewButton} type="button" onClick={start} disabled={!connected} className={primary}>
              <Trans>Find someone new</Trans>
            </button>
          )}
        </div>
      )}
      {receiver && partnerReported && (
        <div
          role="status"
          className="mx-3 mb-2 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-300 bg-white px-4 py-3"
        >
          <div className="text-slate-900">
            <p className="font-semibold">
              <Trans>You reported {partnerName}. This chat has ended.</Trans>
            </p>
            <p className="text-sm text-slate-700">
              <Trans>Nothing more from them reaches you here.</Trans>
            </p>
          </div>
          {isSearching ? (
            <p className="text-sm text-slate-800">
              <Trans>Searching…</Trans>
            </p>
          ) : (
            <button ref={findNewButton} type="button" onClick={start} disabled={!connected} className={primary}>
              <Trans>Next</Trans>
            </button>
          )}
        </div>
      )}
      {receiver && userIsDisconnected && !isPeerDisconnected && (
        <div role="status" className="mx-3 mb-2 rounded-xl border border-red-300 bg-red-50 px-4 py-3 text-red-950">
          <p className="font-semibold">
            <Trans>You were disconnected</Trans>
          </p>
          <p className="text-sm">
            {connected ? (
              <Trans>Your connection dropped, so this chat has ended. Start again when you are ready.</Trans>
            ) : (
              <Trans>Your connection dropped, so this chat has ended. Reconnecting…</Trans>
            )}
          </p>
        </div>
      )}
      {/* Right above the message box: this side's choice, and whether the partner would like to share pictures. */}
      {inRoom && pictures.consent && (
        <PicturesConsent
          key={roomId}
          mine={pictures.consent.mine}
          theirs={pictures.consent.theirs}
          partnerName={partnerName}
          onChange={pictures.consent.setAllowed}
        />
      )}
      {isSearching && (
        <div className="flex justify-center px-3 pb-2">
          <SearchStatusNotice
            status={chat.searchStatus}
            filters={filters}
            onWiden={widen}
            onMeetAgain={chat.recentPartners.length > 0 ? meetAgain : undefined}
            meetAgainAsked={chat.meetAgainAsked}
          />
        </div>
      )}
      {(isSearching || (!inRoom && !chatOver)) && (
        <div className="flex flex-wrap items-center justify-center gap-3 px-3 pt-1 pb-3">
          {isSearching ? (
            <>
              <p role="status" className="flex items-center gap-2 font-semibold text-slate-800">
                <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-indigo-700 border-t-transparent" />
                <Trans>Searching...</Trans>
              </p>
              <button ref={stopButton} type="button" onClick={() => dispatch(textChatRoom.stopSearch())} className={secondary}>
                <Trans>Stop</Trans>
              </button>
            </>
          ) : (
            <button type="button" onClick={start} disabled={!connected} className={primary}>
              <Trans>Start</Trans>
            </button>
          )}
        </div>
      )}
    </>
  );

  return (
    <main id="main" className="flex h-frame flex-col bg-slate-50">
      <header className="flex shrink-0 items-center justify-between gap-3 border-b border-slate-200 bg-white px-3 py-2 sm:px-4">
        <div className="flex items-center gap-2">
          <FrameToggle />
          <Link to="/dashboard" className={`rounded-md px-2 py-1 text-sm font-medium text-indigo-700 hover:underline ${focusRing}`}>
            {/* An arrow that points back: the other way in a right-to-left language. */}
            <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
              ←
            </span>{' '}
            <Trans>Dashboard</Trans>
          </Link>
          <h1 className="text-lg font-bold text-slate-900">
            <Trans>Text chat</Trans>
          </h1>
        </div>
        <div className="flex items-center gap-3 text-sm text-slate-700">
          <ConnectionBadge status={socketStatus} />
          <p>
            <span className="me-1 inline-block size-2 rounded-full bg-emerald-600" aria-hidden="true" />
            <Trans>
              <span data-testid="online-count">{online.count}</span> online
            </Trans>
          </p>
        </div>
      </header>

      <div className="flex min-h-0 flex-1">
        {!isMobile && (
          <section aria-label={t`Chat filters`} className="w-80 shrink-0 overflow-y-auto border-e border-slate-200 bg-white p-4 lg:w-96">
            <FilterPanel locked={isSearching || inRoom} />
          </section>
        )}

        <div className="flex min-h-0 min-w-0 flex-1 flex-col">
          {isMobile && phase !== 'idle' && (
            <button
              type="button"
              aria-expanded={showFilters}
              aria-controls="mobile-filters"
              onClick={() => setFiltersOpenIn(showFilters ? null : phase)}
              className={`shrink-0 border-b border-slate-200 bg-white px-4 py-2 text-start text-sm font-semibold text-indigo-700 ${focusRing}`}
            >
              {showFilters ? t`Hide filters` : t`Filters`}
            </button>
          )}
          {isMobile && showFilters && (
            <div id="mobile-filters" className="max-h-[55dvh] shrink-0 overflow-y-auto border-b border-slate-200 bg-white p-4">
              <FilterPanel locked={isSearching || inRoom} />
            </div>
          )}

          {receiver ? (
            <ChatBackground src={background ?? null}>
              <StrangerConversation
                state={conversation}
                room={inRoom ? room : null}
                myId={myId}
                partnerId={receiver.userId}
                partnerName={partnerName}
                intro={partnerCard}
                notices={notices}
                media={media}
                composer={
                  <ChatComposer
                    ref={composer}
                    disabled={!inRoom}
                    onSend={send}
                    onTyping={typing}
                    partnerHere={partnerHere}
                    touch={touch}
                    attach={pictures.attach}
                    leading={
                      inRoom && (
                        <button type="button" onClick={skip} className={touch ? nextOnTouch : secondary} aria-keyshortcuts="Escape Escape">
                          <Trans>Next</Trans>
                        </button>
                      )
                    }
                  />
                }
              />
            </ChatBackground>
          ) : (
            <>
              <div className="grid flex-1 place-items-center p-6 text-center">
                <Lobby phase={phase} requeuing={isRequeuing} userIsDisconnected={userIsDisconnected} touch={touch} />
              </div>
              <div className="shrink-0">{notices}</div>
            </>
          )}
        </div>
      </div>
    </main>
  );
}

function Lobby({
  phase,
  requeuing,
  userIsDisconnected,
  touch,
}: {
  phase: string;
  requeuing: boolean;
  userIsDisconnected: boolean;
  touch: boolean;
}) {
  const { t } = useLingui();
  if (phase === 'searching') {
    return (
      <div className="grid max-w-sm gap-2">
        <p className="text-xl font-bold text-slate-900">{requeuing ? t`Finding someone new…` : t`Looking for a stranger…`}</p>
        <p className="text-slate-700">
          <Trans>We match you with someone who fits your filters, sharing a topic when we can.</Trans>
        </p>
      </div>
    );
  }
  return (
    <div className="grid max-w-sm gap-2">
      {userIsDisconnected && (
        <p role="status" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-900">
          <Trans>You were disconnected, so your chat ended. Press Start to meet someone new.</Trans>
        </p>
      )}
      <p className="text-xl font-bold text-slate-900">
        <Trans>Meet someone new</Trans>
      </p>
      <p className="text-slate-700">
        {touch
          ? t`Set who you would like to meet, then tap Start. Next takes you to someone new.`
          : t`Set who you would like to meet, then press Start. Enter sends a message; press Esc twice to skip.`}
      </p>
    </div>
  );
}

function ConnectionBadge({ status }: { status: ReturnType<typeof useSocketStatus> }) {
  const { t } = useLingui();
  if (status === 'connected') return null;
  const text = status === 'failed' ? t`Offline` : status === 'closed' || status === 'ended' ? t`Not connected` : t`Connecting…`;
  return (
    <p role="status" className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-950">
      {text}
    </p>
  );
}
