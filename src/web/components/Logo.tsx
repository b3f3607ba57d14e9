import { cn } from '../lib/utils';

export type LogoSize = 'xs' | 's' | 'm' | 'l' | 'xl';
export type LogoColor = 'default' | 'mono' | 'inverse';

const SIZES: Record<LogoSize, { mark: number; text: string; gap: string }> = {
  xs: { mark: 16, text: 'text-sm', gap: 'gap-1' },
  s: { mark: 20, text: 'text-base', gap: 'gap-1.5' },
  m: { mark: 28, text: 'text-xl', gap: 'gap-2' },
  l: { mark: 36, text: 'text-2xl', gap: 'gap-2.5' },
  xl: { mark: 48, text: 'text-4xl', gap: 'gap-3' },
};

const COLORS: Record<LogoColor, { tile: string; dot: string; ring: string; text: string }> = {
  default: { tile: '#1d4ed8', dot: '#ffffff', ring: '#ffffff', text: 'text-slate-900' },
  mono: { tile: '#0f172a', dot: '#ffffff', ring: '#ffffff', text: 'text-slate-900' },
  inverse: { tile: '#ffffff', dot: '#1d4ed8', ring: '#1d4ed8', text: 'text-white' },
};

/** The Cohortly mark (two linked circles: a candidate meeting a trial) and wordmark. */
export function Logo({
  size = 'm',
  color = 'default',
  showWordmark = true,
  className,
}: {
  size?: LogoSize;
  color?: LogoColor;
  showWordmark?: boolean;
  className?: string;
}) {
  const preset = SIZES[size];
  const palette = COLORS[color];
  return (
    <span role="img" aria-label="Cohortly" className={cn('inline-flex items-center font-semibold tracking-tight', preset.gap, className)} data-size={size}>
      <svg aria-hidden="true" width={preset.mark} height={preset.mark} viewBox="0 0 32 32" focusable="false">
        <rect width="32" height="32" rx="8" fill={palette.tile} />
        <circle cx="12" cy="16" r="5" fill={palette.dot} />
        <circle cx="20.5" cy="16" r="5" fill="none" stroke={palette.ring} strokeWidth="2.5" />
      </svg>
      {showWordmark && (
        <span aria-hidden="true" className={cn(preset.text, palette.text)}>
          Cohortly
        </span>
      )}
    </span>
  );
}
