import { useLayoutEffect } from 'react';

/**
 * Sets the document's title while the page that renders it is open, and gives the previous one
 * back when it closes (the landing page keeps the title of index.html). A hook rather than
 * React 19's hoisted <title> element, which would leave the title of index.html beside its own.
 */
export function DocumentTitle({ title }: { title: string }) {
  useLayoutEffect(() => {
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);
  return null;
}
