import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Input, Label } from './ui';

/**
 * A labelled search input that reports its trimmed text 300 ms after typing stops (undefined when empty),
 * so a list's URL search param changes once per pause, not per keystroke.
 */
export function SearchBox({
  id,
  value,
  onChange,
  placeholder,
  label = 'Search',
  className = 'w-64',
}: {
  id: string;
  label?: string;
  value: string | undefined;
  onChange: (next: string | undefined) => void;
  placeholder: string;
  className?: string;
}) {
  const [text, setText] = useState(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  useEffect(() => {
    const next = text.trim() || undefined;
    if (next === (value ?? undefined)) return;
    const timer = window.setTimeout(() => onChange(next), 300);
    return () => window.clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="relative">
        <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" />
        <Input id={id} type="search" className={`${className} pl-9`} placeholder={placeholder} value={text} onChange={(event) => setText(event.target.value)} />
      </div>
    </div>
  );
}
