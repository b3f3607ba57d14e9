import {
  forwardRef,
  useId,
  type ButtonHTMLAttributes,
  type HTMLAttributes,
  type InputHTMLAttributes,
  type LabelHTMLAttributes,
  type ReactElement,
  type ReactNode,
  type SelectHTMLAttributes,
} from 'react';
import { cloneElement, isValidElement } from 'react';
import { cn } from '../lib/utils';

const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700';

const buttonVariants = {
  primary: 'bg-blue-700 text-white hover:bg-blue-800 disabled:bg-blue-700/60',
  secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-100',
  ghost: 'text-slate-700 hover:bg-slate-100',
  danger: 'bg-red-700 text-white hover:bg-red-800 disabled:bg-red-700/60',
  link: 'text-blue-700 underline-offset-4 hover:underline px-0',
} as const;
const buttonSizes = { sm: 'h-8 px-3 text-sm', md: 'h-10 px-4 text-sm', lg: 'h-11 px-6 text-base', icon: 'h-9 w-9' } as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof buttonVariants;
  size?: keyof typeof buttonSizes;
}

export const buttonClass = (variant: keyof typeof buttonVariants = 'primary', size: keyof typeof buttonSizes = 'md', className?: string) =>
  cn(
    'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-70',
    focusRing,
    buttonVariants[variant],
    buttonSizes[size],
    className,
  );

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { className, variant = 'primary', size = 'md', type = 'button', ...props },
  ref,
) {
  return <button ref={ref} type={type} className={buttonClass(variant, size, className)} {...props} />;
});

/**
 * A form's submit button: while the save is under way it is disabled and reads `pendingLabel` ("Saving…" unless
 * told otherwise), so a form cannot be sent twice. `icon` stays in front of either label.
 */
export function SubmitButton({
  pending,
  pendingLabel = 'Saving…',
  icon,
  disabled,
  children,
  ...props
}: Omit<ButtonProps, 'type'> & { pending: boolean; pendingLabel?: string; icon?: ReactNode }) {
  return (
    <Button type="submit" disabled={disabled || pending} {...props}>
      {icon}
      {pending ? pendingLabel : children}
    </Button>
  );
}

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input({ className, ...props }, ref) {
  return (
    <input
      ref={ref}
      className={cn(
        'flex h-10 w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-700 aria-[invalid=true]:border-red-700',
        focusRing,
        className,
      )}
      {...props}
    />
  );
});

export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(function Select({ className, ...props }, ref) {
  return (
    <select
      ref={ref}
      className={cn(
        'flex h-10 w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 disabled:cursor-not-allowed disabled:bg-slate-100',
        focusRing,
        className,
      )}
      {...props}
    />
  );
});

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cn('text-sm font-medium text-slate-800', className)} {...props} />;
}

/**
 * A labelled filter of a list: "Any ..." (no filter, undefined) or one of `options`. `children` are extra
 * options placed first (e.g. the value in the URL while the list of choices is still loading).
 */
export function FilterSelect<T extends string>({
  id,
  label,
  anyLabel,
  value,
  options,
  onChange,
  className,
  children,
}: {
  id: string;
  label: string;
  anyLabel: string;
  value: T | undefined;
  options: ReadonlyArray<{ value: T; label: string }>;
  onChange: (value: T | undefined) => void;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select id={id} className={className} value={value ?? ''} onChange={(event) => onChange((event.target.value || undefined) as T | undefined)}>
        <option value="">{anyLabel}</option>
        {children}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
    </div>
  );
}

/**
 * A labelled form control with hint and error text, wired by id and aria-describedby.
 * The single child is the control (Input, Select...).
 */
export function Field({
  label,
  error,
  hint,
  children,
  className,
}: {
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactElement<Record<string, unknown>>;
  className?: string;
}) {
  const generated = useId();
  const id = (isValidElement(children) && (children.props.id as string | undefined)) || generated;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('grid gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {cloneElement(children, { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={hintId} className="text-xs text-slate-700">
          {hint}
        </p>
      )}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}

/** A field's error under its control (nothing without one); the control's aria-describedby names `id`. */
export function FieldError({ id, children }: { id?: string; children?: ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} className="text-sm text-red-700">
      {children}
    </p>
  );
}

export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('rounded-lg border border-slate-200 bg-white shadow-sm', className)} {...props} />;
}
export function CardHeader({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('flex flex-col gap-1 p-5 pb-3', className)} {...props} />;
}
export function CardTitle({ className, as: Tag = 'h2', ...props }: HTMLAttributes<HTMLHeadingElement> & { as?: 'h1' | 'h2' | 'h3' }) {
  return <Tag className={cn('text-lg font-semibold text-slate-900', className)} {...props} />;
}
export function CardDescription({ className, ...props }: HTMLAttributes<HTMLParagraphElement>) {
  return <p className={cn('text-sm text-slate-700', className)} {...props} />;
}
export function CardContent({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('p-5 pt-2', className)} {...props} />;
}

export function Badge({ className, tone = 'slate', ...props }: HTMLAttributes<HTMLSpanElement> & { tone?: 'slate' | 'blue' | 'green' | 'amber' }) {
  const tones = {
    slate: 'bg-slate-100 text-slate-800',
    blue: 'bg-blue-100 text-blue-900',
    green: 'bg-green-100 text-green-900',
    amber: 'bg-amber-100 text-amber-900',
  };
  return <span className={cn('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium', tones[tone], className)} {...props} />;
}

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {description && <p className="mt-1 text-sm text-slate-700">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

/**
 * A table that may be wider than the window (a phone): it scrolls sideways inside its own region, never the
 * page. The region is positioned, so visually hidden text in cells stays inside it instead of widening the
 * document; it asks for no width of its own (w-0 min-w-full), so a grid or card around it does not grow to the
 * table's width; and it is focusable and named so a keyboard can scroll it (axe's scrollable-region-focusable).
 * Under a visible heading that names it, pass the heading's id as `labelledBy` instead of a caption: a screen
 * reader would otherwise read the same words twice (issue 32).
 */
export function Table({ children, ...name }: { children: ReactNode } & ({ caption: string } | { labelledBy: string })) {
  const label = 'caption' in name ? { 'aria-label': name.caption } : { 'aria-labelledby': name.labelledBy };
  return (
    <div
      role="region"
      {...label}
      tabIndex={0}
      className="relative w-0 min-w-full overflow-x-auto rounded-lg border border-slate-200 bg-white focus-visible:outline-2 focus-visible:outline-blue-700"
    >
      <table className="w-full border-collapse text-left text-sm" {...('caption' in name ? {} : { 'aria-labelledby': name.labelledBy })}>
        {'caption' in name && <caption className="sr-only">{name.caption}</caption>}
        {children}
      </table>
    </div>
  );
}
export function Th({ children, className }: { children?: ReactNode; className?: string }) {
  return (
    <th scope="col" className={cn('border-b border-slate-200 bg-slate-50 px-4 py-2.5 font-semibold text-slate-800', className)}>
      {children}
    </th>
  );
}
export function Td({ children, className, id }: { children?: ReactNode; className?: string; id?: string }) {
  return (
    <td id={id} className={cn('border-b border-slate-100 px-4 py-2.5 align-middle text-slate-800', className)}>
      {children}
    </td>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
      <p className="font-medium text-slate-900">{title}</p>
      {children && <div className="mt-1 text-sm text-slate-700">{children}</div>}
    </div>
  );
}
