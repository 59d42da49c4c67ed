// The product specification's animation, layout and toast timings: the client's alone.

export const FEATURES_SCROLL_OFFSET_PX = 112;
export const MOBILE_BREAKPOINT_PX = 768;
export const INTRO_FADE_IN_S = 2;
export const INTRO_FADE_IN_STAGGER_S = 0.2;
export const DEFAULT_LAYOUT_ANIMATION_S = 0.45;
export const RESIZE_BLOCK_MS = 250;

export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_DIRECTION = 'right';
export const TOAST_SWIPE_THRESHOLD = 50;
export const TOAST_HOTKEY = ['F8'];
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
