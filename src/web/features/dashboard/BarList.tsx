import { number } from './parts';

export interface Bar {
  key: string;
  label: string;
  value: number;
}

/**
 * Horizontal bars drawn with plain elements, for a chart that is only "how many of each": the dashboard's first
 * tab shows its charts without recharts (~100 kB gz and most of a phone's blocking time; decision 167). Labels
 * wrap instead of being cut, and each bar shows its number.
 */
export function BarList({ bars, color }: { bars: Bar[]; color: string }) {
  const largest = Math.max(1, ...bars.map((bar) => bar.value));
  return (
    <ul className="grid gap-2" data-testid="bar-list">
      {bars.map((bar) => (
        <li key={bar.key} className="grid grid-cols-[minmax(0,9rem)_minmax(0,1fr)_auto] items-center gap-2 text-sm">
          <span className="break-words text-slate-700">{bar.label}</span>
          <span className="h-4 rounded bg-slate-100">
            <span className="block h-4 rounded" style={{ width: `${(bar.value / largest) * 100}%`, backgroundColor: color }} />
          </span>
          <span className="text-right tabular-nums text-slate-900">{number(bar.value)}</span>
        </li>
      ))}
    </ul>
  );
}
