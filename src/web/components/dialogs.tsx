import { AlertDialog as AlertDialogPrimitive, Dialog as DialogPrimitive } from 'radix-ui';
import { Pencil, Plus, X, type LucideIcon } from 'lucide-react';
import { createContext, forwardRef, useContext, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { Button, SubmitButton } from './ui';

const overlayClass = 'fixed inset-0 z-40 bg-slate-900/50';
const contentClass =
  'fixed left-1/2 top-1/2 z-50 grid max-h-[90vh] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-lg border border-slate-200 bg-white p-6 shadow-xl focus:outline-none';

/**
 * The button that opens a create-or-edit form dialog: a pencil when editing, else the create icon (a plus by
 * default). It forwards its ref and props, so a dialog trigger (asChild) can open it.
 */
export const EditOrCreateButton = forwardRef<
  HTMLButtonElement,
  Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> & { editing: boolean; label: string; createIcon?: LucideIcon; variant?: 'primary' | 'secondary' }
>(function EditOrCreateButton({ editing, label, createIcon: CreateIcon = Plus, variant = 'primary', ...props }, ref) {
  const Icon = editing ? Pencil : CreateIcon;
  return (
    <Button ref={ref} variant={variant} {...props}>
      <Icon aria-hidden="true" className="h-4 w-4" />
      {label}
    </Button>
  );
});

/** The open dialog itself: overlay, panel, title, description (or the title again, unseen) and a close button. */
export function DialogPanel({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlayClass} />
      <DialogPrimitive.Content className={contentClass}>
        <div className="flex items-start justify-between gap-4">
          <div className="grid gap-1">
            <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">{title}</DialogPrimitive.Title>
            {description ? (
              <DialogPrimitive.Description className="text-sm text-slate-700">{description}</DialogPrimitive.Description>
            ) : (
              <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
            )}
          </div>
          <DialogPrimitive.Close asChild>
            <Button variant="ghost" size="icon" aria-label="Close">
              <X aria-hidden="true" className="h-4 w-4" />
            </Button>
          </DialogPrimitive.Close>
        </div>
        {children}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/**
 * The end of a form dialog: Cancel (`onCancel` closes the dialog) and the submit button, which reads
 * `pendingLabel` ("Saving…" unless told otherwise) while `pending`.
 */
export function DialogFooter({
  onCancel,
  submitLabel,
  pending,
  pendingLabel,
  submitDisabled,
}: {
  onCancel: () => void;
  submitLabel: string;
  pending: boolean;
  pendingLabel?: string;
  submitDisabled?: boolean;
}) {
  return (
    <div className="flex justify-end gap-2">
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <SubmitButton pending={pending} pendingLabel={pendingLabel} disabled={submitDisabled}>
        {submitLabel}
      </SubmitButton>
    </div>
  );
}

/** True inside a lazily loaded dialog's content: its Root (open state) and trigger are the lazy wrapper's. */
export const InLazyDialog = createContext(false);

/**
 * A modal dialog with a title (and optional description); `trigger` opens it. Inside `lazyDialog`
 * (./lazy-dialog.tsx) only the panel is rendered: the wrapper holds the open state and the trigger.
 */
export function Dialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  children,
}: {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger?: ReactNode;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  const panel = (
    <DialogPanel title={title} description={description}>
      {children}
    </DialogPanel>
  );
  if (useContext(InLazyDialog)) return panel;
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <DialogPrimitive.Trigger asChild>{trigger}</DialogPrimitive.Trigger>}
      {panel}
    </DialogPrimitive.Root>
  );
}

/** A confirmation for destructive actions. `confirmDisabled` keeps the action off until the user confirms. */
export function ConfirmDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  confirmLabel,
  onConfirm,
  confirmDisabled,
  pending,
  children,
}: {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger?: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  confirmDisabled?: boolean;
  pending?: boolean;
  children?: ReactNode;
}) {
  return (
    <AlertDialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <AlertDialogPrimitive.Trigger asChild>{trigger}</AlertDialogPrimitive.Trigger>}
      <AlertDialogPrimitive.Portal>
        <AlertDialogPrimitive.Overlay className={overlayClass} />
        <AlertDialogPrimitive.Content className={contentClass}>
          <AlertDialogPrimitive.Title className="text-lg font-semibold text-slate-900">{title}</AlertDialogPrimitive.Title>
          <AlertDialogPrimitive.Description className="text-sm text-slate-700">{description}</AlertDialogPrimitive.Description>
          {children}
          <div className="flex justify-end gap-2">
            <AlertDialogPrimitive.Cancel asChild>
              <Button variant="secondary">Cancel</Button>
            </AlertDialogPrimitive.Cancel>
            <Button
              variant="danger"
              disabled={confirmDisabled || pending}
              onClick={(event) => {
                event.preventDefault();
                onConfirm();
              }}
            >
              {pending ? 'Working…' : confirmLabel}
            </Button>
          </div>
        </AlertDialogPrimitive.Content>
      </AlertDialogPrimitive.Portal>
    </AlertDialogPrimitive.Root>
  );
}
