import { createContext, useContext } from 'react';

export type LayoutName = 'default' | 'api' | 'empty';

/** Which layout a page renders in; null when rendered bare (404 or error above every layout). */
export const LayoutContext = createContext<LayoutName | null>(null);

export function useLayout(): LayoutName | null {
  return useContext(LayoutContext);
}
