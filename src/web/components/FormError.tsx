import type { HTMLAttributes, Ref } from 'react';
import { cn } from '../lib/utils';

/**
 * The red message about a whole form or action (the server's refusal, a failed save or load), announced as an
 * alert. Nothing is rendered without a message, so `<FormError>{serverError}</FormError>` needs no guard.
 * `announce={false}` for a standing reason a control points to (aria-describedby) rather than news.
 */
export function FormError({
  children,
  className,
  announce = true,
  ref,
  ...props
}: HTMLAttributes<HTMLDivElement> & { announce?: boolean; ref?: Ref<HTMLDivElement> }) {
  if (children === null || children === undefined || children === false || children === '') return null;
  return (
    <div
      ref={ref}
      role={announce ? 'alert' : undefined}
      className={cn('rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800', className)}
      {...props}
    >
      {children}
    </div>
  );
}
