import { useBlocker } from '@tanstack/react-router';
import type { RefObject } from 'react';

/**
 * Asks before a page with unsaved edits is left: in the app (a confirm with `message`) and on reload or closing
 * the tab (the browser's own prompt). `leaving`, once true, lets the page navigate away on purpose (e.g. to
 * the record it has just created).
 */
export function useUnsavedChangesGuard(dirty: boolean, message: string, leaving?: RefObject<boolean>) {
  useBlocker({
    shouldBlockFn: () => dirty && !leaving?.current && !window.confirm(message),
    enableBeforeUnload: () => dirty,
  });
}
