import { createContext, useContext } from 'react';

/**
 * What a page inside the signed-in frame may ask of it. The 1:1 chat pages open full screen
 * (`collapsed`): they show `expand` as one button back to the frame.
 */
export type FrameControls = { collapsed: boolean; expand: () => void };

export const FrameContext = createContext<FrameControls | null>(null);

/** The frame around this page, or null outside it (a visitor, a page without the frame). */
export const useFrame = () => useContext(FrameContext);
