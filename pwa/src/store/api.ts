import { setupListeners } from '@reduxjs/toolkit/query';
import type { Middleware } from '@reduxjs/toolkit';
import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import type { AccessTokenAnswer, AuthProviders, LoginBody, SignupBody, VerifyInfoBody } from '@parley/contract/auth';
import type { SecondFactorAnswer } from '@parley/contract/factors';
import { CACHE_KEEP_UNUSED_S } from '@parley/contract/constants';
import { blockedCheck, safetyEvents, type ReportAnswer, type ReportBody } from '@parley/contract/safety';
import type { MessagePage } from '@parley/contract/rooms';
import type { LinkPreviewAnswer } from '@parley/contract/links';
import type { LoadLinkPreview } from '../components/conversation/LinkPreviewCard';
import type { AttachmentKind, MessageAttachment } from '@parley/contract/attachments';
import type { LiveFollowState } from '@parley/contract/live';
import type { GifSearch, StickerList } from '@parley/contract/media';
import { backgroundUrl, type PersonSummary, type RateBody, type RecentPartner } from '@parley/contract/people';
import { logOut, setCredentials, type AuthState } from '../features/auth/authSlice';
import { refreshAccessToken } from '../app/refreshSession';
import { setSigningOut } from '../lib/signingOut';
import { disablePush } from '../lib/push';
import { injectSlice, lazyMiddleware } from '../app/store';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'react-redux';
import { useAppDispatch, useAppSelector } from './hooks';
import type { ConversationMedia } from '../components/conversation/media';
import { toast } from '../lib/toast';
import type { StoredRoomDeps } from '../realtime/storedRoom';
import type { PartnerActionsState } from '../components/conversation/PartnerActions';
import { describeApiError, errorBody } from '../lib/apiError';
import type { TranslateAnswer, TranslateRequest } from '@parley/contract/translate';
import type { Translate } from '../components/conversation/translation';
import { followHostedRoom } from '../realtime/hostedRooms';
import { checkPayload, onSocketEvent } from '../realtime/socket';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { isShippedLocale } from '../lib/i18n/locales';

/**
 * The request helper: same-origin backend, cookies included, Bearer header when
 * a token is held, JSON bodies, query strings from params, an optional timeout (per call:
 * `{ url, timeout }`). Its errors are RTK Query's kinds: FETCH_ERROR, TIMEOUT_ERROR,
 * PARSING_ERROR (originalStatus + body text) or the numeric status with the data.
 */
const rawBaseQuery = fetchBaseQuery({
  baseUrl: '',
  credentials: 'include',
  prepareHeaders(headers, { getState }) {
    const token = (getState() as { auth: AuthState }).auth.token;
    if (token) headers.set('Authorization', `Bearer ${token}`);
    // The language shown, for what the server writes on a request's behalf (an email to a new address).
    if (isShippedLocale(i18n.locale)) headers.set('Accept-Language', i18n.locale);
    return headers;
  },
});

// Calls that must never trigger a refresh themselves (a 401 from them is the answer).
const NO_REAUTH = new Set([
  'login',
  'signup',
  'logout',
  'refresh',
  'info',
  'passkeyLogin',
  'secondFactor',
  'secondFactorOptions',
  'resumeSecondFactor',
  'recover',
]);

/** A 401 on a signed-in call refreshes the access token once and retries; a failed refresh signs out. */
const baseQueryWithReauth: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extraOptions) => {
  let result = await rawBaseQuery(args, api, extraOptions);
  if (result.error?.status !== 401 || NO_REAUTH.has(api.endpoint)) return result;
  let token: string | null;
  try {
    token = await refreshAccessToken(api.dispatch);
  } catch {
    return result; // Server unreachable: keep the session and let the caller show the failure.
  }
  if (!token) {
    api.dispatch(logOut()); // Spec 8: refresh failures are silent; the guard sends the user to /login.
    return result;
  }
  result = await rawBaseQuery(args, api, extraOptions);
  return result;
};

export const api = createApi({
  reducerPath: 'api',
  baseQuery: baseQueryWithReauth,
  tagTypes: ['User', 'Profile', 'Settings', 'Subscription', 'Notification', 'Mission', 'MissionQuest', 'Store', 'Emoji'],
  keepUnusedDataFor: CACHE_KEEP_UNUSED_S,
  // Back online (setupListeners in App): data a screen shows is fetched again by itself.
  refetchOnReconnect: true,
  endpoints: (builder) => ({
    /** With two-factor on, a right password answers the second step instead of a session. */
    login: builder.mutation<AccessTokenAnswer | SecondFactorAnswer, LoginBody>({
      query: (body) => ({ url: '/api/auth/login', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data && 'accessToken' in data) dispatch(setCredentials(data));
      },
    }),
    signup: builder.mutation<AccessTokenAnswer, SignupBody>({
      query: (body) => ({ url: '/api/auth/signup', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(setCredentials(data));
      },
    }),
    /** Failures are ignored: the user is signed out on this device either way. */
    logout: builder.mutation<null, void>({
      queryFn: async (_arg, api) => {
        setSigningOut(true);
        // This device stops receiving pushes for the account it signs out of.
        await disablePush(async (url, body) => ({ ok: !(await rawBaseQuery({ url, method: 'POST', body }, api, {})).error }));
        await rawBaseQuery({ url: '/api/auth/logout', method: 'POST' }, api, {});
        return { data: null };
      },
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        await queryFulfilled.catch(() => undefined);
        dispatch(logOut());
        dispatch(api.util.resetApiState());
        // The flag stays up until the socket is closed (app/RealtimeProvider): the server's end of
        // this sign-in may reach the socket after the answer to the sign-out, and must not read as
        // "you were signed out" elsewhere. The next sign-in's connection clears it.
      },
    }),
    /** The single-flight refresh; answers null when there is no session. */
    refresh: builder.mutation<string | null, void>({
      queryFn: async (_arg, api) => {
        try {
          return { data: await refreshAccessToken(api.dispatch) };
        } catch (error) {
          return { error: error as FetchBaseQueryError };
        }
      },
    }),
    /** After Google sign-in: the access token for the session the callback's cookie carries. */
    info: builder.mutation<AccessTokenAnswer, void>({
      query: () => ({ url: '/api/auth/info', method: 'GET' }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(setCredentials(data));
      },
    }),
    /** A report of someone met in any conversation; features share it (reports exist wherever people meet). */
    fileReport: builder.mutation<ReportAnswer, ReportBody>({
      query: (body) => ({ url: '/api/reports', method: 'POST', body }),
    }),
    /** Following a broadcaster (told when they go live): the stream page and profiles share it. */
    followState: builder.query<LiveFollowState, string>({
      query: (userId) => ({ url: `/api/live/follows/${encodeURIComponent(userId)}` }),
    }),
    setFollow: builder.mutation<LiveFollowState, { userId: string; follow: boolean }>({
      query: ({ userId, follow }) => ({ url: `/api/live/follows/${encodeURIComponent(userId)}`, method: follow ? 'PUT' : 'DELETE' }),
      // The answer is the new state: every button for this person shows it at once.
      async onQueryStarted({ userId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(api.util.upsertQueryData('followState', userId, data));
      },
    }),
    /** The partner's video frame at a report (a JPEG), sent right after the report. */
    attachReportSnapshot: builder.mutation<null, { id: string; jpeg: Blob }>({
      query: ({ id, jpeg }) => ({
        url: `/api/reports/${encodeURIComponent(id)}/snapshot`,
        method: 'PUT',
        body: jpeg,
        headers: { 'content-type': 'image/jpeg' },
      }),
    }),
    /** The chosen chat background's URL (from the own profile), shown behind every conversation. */
    chatBackground: builder.query<string | null, void>({
      query: () => ({ url: '/api/profile' }),
      transformResponse: (profile: { background?: unknown }) =>
        backgroundUrl(typeof profile.background === 'string' ? profile.background : null),
      providesTags: ['Profile'],
    }),
    // People met in chat: shared by the chat screens (after a chat) and the people pages.
    getRecentPartners: builder.query<RecentPartner[], void>({
      query: () => '/api/friends/recent',
      providesTags: [{ type: 'User', id: 'FRIENDS' }],
    }),
    sendFriendRequest: builder.mutation<{ status: 'sent' | 'friends' }, string>({
      query: (username) => ({ url: '/api/friends/requests', method: 'POST', body: { username } }),
      invalidatesTags: [{ type: 'User', id: 'FRIENDS' }],
    }),
    rate: builder.mutation<{ ok: true }, RateBody>({
      query: (body) => ({ url: '/api/ratings', method: 'POST', body }),
      invalidatesTags: [{ type: 'User', id: 'FRIENDS' }],
    }),
    verifyInfo: builder.mutation<AccessTokenAnswer, VerifyInfoBody>({
      query: (body) => ({ url: '/api/user/verify-info', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(setCredentials(data));
      },
    }),
    /** A page of a stored room's history (group rooms and direct messages share it). */
    roomMessages: builder.query<
      MessagePage,
      { roomId: string; before?: number; after?: number; around?: number; thread?: number; limit: number }
    >({
      query: ({ roomId, ...params }) => ({ url: `/api/rooms/${encodeURIComponent(roomId)}/messages`, params }),
      keepUnusedDataFor: 0,
    }),
    /** A message's link preview (direct and group rooms), made by the server. */
    linkPreview: builder.query<LinkPreviewAnswer, { roomId: string; messageId: number; version: number }>({
      // The version (when the message was edited) only keeps an edited message's preview apart from its first.
      query: ({ version, ...params }) => ({ url: '/api/links/preview', params: { ...params, v: version } }),
    }),
    uploadAttachment: builder.mutation<MessageAttachment, { roomId: string; kind: AttachmentKind; blob: Blob }>({
      query: ({ roomId, kind, blob }) => ({
        url: `/api/rooms/${encodeURIComponent(roomId)}/attachments`,
        method: 'POST',
        params: { kind },
        body: blob,
        headers: { 'content-type': blob.type || 'application/octet-stream' },
        // Two minutes of voice or a large photo on a slow connection.
        timeout: 120_000,
      }),
    }),
  }),
});

// Loaded with the first screen that calls the server: join every store now (reducer and middleware).
declare module '../app/store' {
  interface LazyLoadedSlices {
    api: ReturnType<typeof api.reducer>;
  }
}
injectSlice(api);
// Refetch on focus and reconnect where endpoints ask for it: set up once per store, when it first meets the api.
const refetchListeners: Middleware = (store) => {
  setupListeners(store.dispatch);
  return (next) => (action) => next(action);
};
lazyMiddleware.addMiddleware(api.middleware, refetchListeners);

export const {
  useLoginMutation,
  useSignupMutation,
  useLogoutMutation,
  useRefreshMutation,
  useInfoMutation,
  useVerifyInfoMutation,
  useFileReportMutation,
  useAttachReportSnapshotMutation,
  useFollowStateQuery,
  useSetFollowMutation,
  useChatBackgroundQuery,
  useGetRecentPartnersQuery,
  useSendFriendRequestMutation,
  useRateMutation,
} = api;

/** What a stored room needs of the app: its history pages through the request helper, and toasts for what went wrong. */
export function useStoredRoomDeps(
  roomId: string | null,
  kind: 'group' | 'direct' | 'live' = 'direct',
  joinOnConnect = true,
): StoredRoomDeps | null {
  const dispatch = useAppDispatch();
  return useMemo(
    () =>
      roomId === null
        ? null
        : {
            roomId,
            fetchPage: (q) =>
              dispatch(api.endpoints.roomMessages.initiate({ roomId, ...q }, { subscribe: false, forceRefetch: true })).unwrap(),
            notify: (n) => toast({ ...n, variant: 'error' }),
            // Pictures and voice messages: stored rooms only (never a stream's chat).
            ...(kind !== 'live' && {
              upload: async (attachmentKind, blob) => {
                const done = await dispatch(api.endpoints.uploadAttachment.initiate({ roomId, kind: attachmentKind, blob }));
                if ('data' in done && done.data) return done.data;
                const error = 'error' in done ? done.error : undefined;
                const status = (error as { status?: unknown } | undefined)?.status;
                // The server's refusal is said; a connection that failed leaves the message to go again.
                if (typeof status === 'number') throw { message: describeApiError(error, 'The file could not be sent.') };
                throw new Error('offline');
              },
            }),
            // Group rooms may fan out through Ably (when the server has a key); direct rooms stay on socket.io.
            ...(kind === 'group' && { followHosted: followHostedRoom }),
            joinOnConnect,
          },
    [dispatch, roomId, kind, joinOnConnect],
  );
}

/** Loads a room's messages' link previews through the request helper (each kept while the app runs). */
export function useLinkPreviewLoader(roomId: string | null): LoadLinkPreview | undefined {
  const dispatch = useAppDispatch();
  return useMemo(
    () =>
      roomId === null
        ? undefined
        : async (messageId: number, version: number) =>
            (await dispatch(api.endpoints.linkPreview.initiate({ roomId, messageId, version }, { subscribe: false })).unwrap()).preview,
    [dispatch, roomId],
  );
}

/**
 * Fetches a room's picture or voice message as a signed-in member (the file needs the
 * Authorization header a plain <img src> cannot send), refreshing the access token once on a 401.
 */
export function useAttachmentLoader(): (url: string) => Promise<Blob> {
  const store = useStore();
  const dispatch = useAppDispatch();
  return useCallback(
    async (url: string) => {
      const get = (token: string | null) =>
        fetch(url, { credentials: 'include', headers: token ? { Authorization: `Bearer ${token}` } : {} });
      let res = await get((store.getState() as { auth: AuthState }).auth.token);
      if (res.status === 401) {
        const token = await refreshAccessToken(dispatch);
        if (token) res = await get(token);
      }
      if (!res.ok) throw new Error(`attachment ${res.status}`);
      return res.blob();
    },
    [store, dispatch],
  );
}

/**
 * A 1:1 chat's partner as the server recorded the match (recent partners), with a friend request
 * and a rating for this room; what went wrong is said in a toast.
 */
export function usePartnerActions(username: string): PartnerActionsState {
  const { data, refetch } = useGetRecentPartnersQuery(undefined, { refetchOnMountOrArgChange: true });
  const [ask, asking] = useSendFriendRequestMutation();
  const [rateChat, rating] = useRateMutation();
  const partner = data?.find((p) => p.username === username);
  const tries = useRef(0);

  // The match is recorded as the room opens: a look made just before it finds nobody yet.
  useEffect(() => {
    if (!data || partner || tries.current >= 3) return;
    tries.current += 1;
    const t = setTimeout(() => void refetch(), 1000);
    return () => clearTimeout(t);
  }, [data, partner, refetch]);

  return {
    partner,
    busy: asking.isLoading || rating.isLoading,
    askFriend: () =>
      void ask(username).then((r) =>
        toast(
          'error' in r
            ? {
                title: i18n._(msg`Request not sent`),
                description: describeApiError(r.error, i18n._(msg`Please try again.`)),
                variant: 'error',
              }
            : { title: i18n._(msg`Friend request sent to ${username}`) },
        ),
      ),
    rate: (value) => {
      if (!partner) return;
      void rateChat({ roomId: partner.roomId, username, value }).then(
        (r) =>
          'error' in r &&
          toast({
            title: i18n._(msg`Rating not saved`),
            description: describeApiError(r.error, i18n._(msg`Please try again.`)),
            variant: 'error',
          }),
      );
    },
  };
}

/** The same tag as the settings' list of blocked people: blocking or unblocking there refreshes this. */
const BLOCKS = { type: 'User' as const, id: 'BLOCKS' };
const NONE: ReadonlySet<string> = new Set();

const blockedApi = api.injectEndpoints({
  endpoints: (builder) => ({
    blockedIds: builder.query<string[], void>({
      query: () => '/api/settings/blocks',
      transformResponse: (people: PersonSummary[]) => people.map((p) => p.userId),
      providesTags: [BLOCKS],
    }),
  }),
});

/**
 * The people this user blocked, whose messages group rooms and live chats hide: those already on
 * screen, and any that come later. A block made anywhere (a report, another tab, another device)
 * reaches every page of the user at once (`safety:blocked`), before the list is read again.
 */
export function useBlockedPeople(): ReadonlySet<string> {
  const dispatch = useAppDispatch();
  const { data } = blockedApi.useBlockedIdsQuery();
  // Blocked since the list was read: hidden now, while the list is read again.
  const [since, setSince] = useState<readonly string[]>([]);
  useEffect(
    () =>
      onSocketEvent(safetyEvents.blocked, (payload: unknown) => {
        const b = checkPayload('safety', blockedCheck, safetyEvents.blocked, payload);
        if (!b) return;
        setSince((ids) => (ids.includes(b.userId) ? ids : [...ids, b.userId]));
        dispatch(api.util.invalidateTags([BLOCKS]));
      }),
    [dispatch],
  );
  return useMemo(() => (data || since.length > 0 ? new Set([...(data ?? []), ...since]) : NONE), [data, since]);
}

const FRIENDS = { type: 'User' as const, id: 'FRIENDS' };
const friendsApi = api.injectEndpoints({
  endpoints: (builder) => ({
    friendIds: builder.query<string[], void>({
      query: () => '/api/friends',
      transformResponse: (friends: PersonSummary[]) => friends.map((f) => f.userId),
      providesTags: [FRIENDS],
    }),
  }),
});

const stickersApi = api.injectEndpoints({
  endpoints: (builder) => ({
    stickers: builder.query<StickerList, void>({ query: () => '/api/stickers', keepUnusedDataFor: 0 }),
    gifs: builder.query<GifSearch, string>({ query: (q) => ({ url: '/api/gifs', params: q ? { q } : {} }) }),
  }),
});

/**
 * A stored room's pictures and voice messages as its page shows them: fetched as a signed-in
 * member, and those of people who are not friends blurred until tapped while the nudity guard is on.
 */
export function useConversationMedia(): ConversationMedia {
  const load = useAttachmentLoader();
  const { data: friends } = friendsApi.useFriendIdsQuery();
  const guardOn = useAppSelector((s) => s.searchPreferences.nudityGuard);
  const [getStickers] = stickersApi.useLazyStickersQuery();
  const [getGifs] = stickersApi.useLazyGifsQuery();
  return useMemo(() => {
    const ids = new Set(friends ?? []);
    return {
      load,
      guarded: (senderId: string) => guardOn && !ids.has(senderId),
      // Packs bought meanwhile show at once; a search already made answers from the cache.
      stickers: () => getStickers(undefined, false).unwrap(),
      searchGifs: (q: string) => getGifs(q, true).unwrap(),
    };
  }, [load, friends, guardOn, getStickers, getGifs]);
}

/**
 * A 1:1 chat's pictures as its page shows them: every picture from the stranger is blurred until
 * tapped and judged by the nudity guard on this device, whatever the guard's setting (a stranger
 * is never a friend here, even one who is elsewhere).
 */
export function useStrangerMedia(): ConversationMedia {
  const media = useConversationMedia();
  return useMemo(() => ({ ...media, guarded: () => true }), [media]);
}

const translationApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** What this server offers (Google sign-in, email, translation); read once per session. */
    serverOffers: builder.query<AuthProviders, void>({ query: () => '/api/auth/providers', keepUnusedDataFor: 3600 }),
    translate: builder.mutation<TranslateAnswer, TranslateRequest>({
      query: (body) => ({ url: '/api/translate', method: 'POST', body }),
    }),
  }),
});

/** What this server offers (GET /api/auth/providers), cached for the session. */
export const { useServerOffersQuery } = translationApi;

/** Why a translation did not come, in the interface language. */
function translationProblem(error: unknown): string {
  const code = errorBody(error).code;
  if (code === 'translator_unavailable') return i18n._(msg`The translator is not answering right now. Please try again later.`);
  if (code === 'rate_limited') return i18n._(msg`You have asked for many translations in a short time. Wait a minute and try again.`);
  if (code === 'translation_off') return i18n._(msg`Translation is not available on this server.`);
  return describeApiError(error, i18n._(msg`The message could not be translated.`));
}

/**
 * The Translate of conversations: into the language the interface shows, through the server's
 * translator; null where the server has none (its providers say so), and then no button shows.
 */
export function useTranslator(): Translate | null {
  const { data } = translationApi.useServerOffersQuery();
  const [translate] = translationApi.useTranslateMutation();
  return useMemo(() => {
    if (!data?.translate) return null;
    return async (text: string) => {
      const r = await translate({ text, ...(isShippedLocale(i18n.locale) ? { target: i18n.locale } : {}) });
      if ('error' in r) throw new Error(translationProblem(r.error));
      return r.data;
    };
  }, [data?.translate, translate]);
}
