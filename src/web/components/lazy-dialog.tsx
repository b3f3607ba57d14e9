import { Loader2 } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { lazy, Suspense, useState, type ComponentType, type ReactElement } from 'react';
import { DialogPanel, InLazyDialog } from './dialogs';

/** What a lazily loaded dialog component takes: it is mounted each time the dialog opens, and told to close. */
export interface LazyDialogProps {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

/**
 * A dialog whose code (its form, validation and their libraries) loads when it first opens, so the page's
 * first JavaScript stays small (the bundle budget, scripts/check-bundle-budget.ts). Hovering or focusing the
 * trigger starts the download; until the code has arrived the dialog opens at once with its title and a
 * loading state. `load` resolves to a component that renders a `Dialog` (only its panel is used); it is
 * mounted on every opening (so its form starts from its defaults) and receives `open` and `onOpenChange`.
 * The wrapper takes the same props plus `trigger`, or `open`/`onOpenChange` to be opened from elsewhere.
 */
export function lazyDialog<P extends LazyDialogProps>(load: () => Promise<ComponentType<P>>, loadingTitle: (props: P) => string) {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => (loading ??= load().then((component) => ({ default: component })));
  const Content = lazy(preload);
  // biome-ignore lint/correctness/noComponentHookFactories: called once per dialog at module level, never during render
  function LazyLoadedDialog(props: P & { trigger?: ReactElement }) {
    const { trigger, ...rest } = props;
    const [ownOpen, setOwnOpen] = useState(false);
    const isOpen = props.open ?? ownOpen;
    const setOpen = props.onOpenChange ?? setOwnOpen;
    return (
      <DialogPrimitive.Root open={isOpen} onOpenChange={setOpen}>
        {trigger && (
          <DialogPrimitive.Trigger asChild onPointerEnter={() => void preload()} onFocus={() => void preload()}>
            {trigger}
          </DialogPrimitive.Trigger>
        )}
        {isOpen && (
          <InLazyDialog.Provider value>
            <Suspense
              fallback={
                <DialogPanel title={loadingTitle(props)}>
                  <p role="status" className="flex items-center gap-2 py-6 text-sm text-slate-700">
                    <Loader2 aria-hidden="true" className="h-5 w-5 animate-spin text-blue-700" />
                    Loading…
                  </p>
                </DialogPanel>
              }
            >
              <Content {...(rest as P)} open onOpenChange={setOpen} />
            </Suspense>
          </InLazyDialog.Provider>
        )}
      </DialogPrimitive.Root>
    );
  }
  return Object.assign(LazyLoadedDialog, { preload });
}
