/**
 * The browser's 'sonner' (aliased in vite.config.ts): pages call toast.success() and toast.error() without the
 * library in their first JavaScript (~9 kB gz on every page that confirms a change; the bundle budget,
 * scripts/check-bundle-budget.ts). The library arrives with the Toaster that main.tsx mounts after the first
 * paint; a toast asked for before then is shown when it has arrived.
 */
import type { ComponentProps } from 'react';
import { createElement, lazy } from 'react';

// The real package by its file: the bare name 'sonner' is this module in the browser build.
type Sonner = typeof import('../../../node_modules/sonner/dist/index.mjs');
let loading: Promise<Sonner> | undefined;
const loadSonner = () => (loading ??= import('../../../node_modules/sonner/dist/index.mjs'));

type ToastArgs = Parameters<Sonner['toast']['success']>;

export const toast = {
  success: (...args: ToastArgs) => void loadSonner().then((sonner) => sonner.toast.success(...args)),
  error: (...args: ToastArgs) => void loadSonner().then((sonner) => sonner.toast.error(...args)),
};

const RealToaster = lazy(() => loadSonner().then((sonner) => ({ default: sonner.Toaster })));
export function Toaster(props: ComponentProps<Sonner['Toaster']>) {
  return createElement(RealToaster, props);
}
