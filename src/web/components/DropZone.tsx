import { Upload } from 'lucide-react';
import { cloneElement, isValidElement, useRef, useState, type DragEvent, type ReactElement } from 'react';
import { cn } from '../lib/utils';

/**
 * A drop target around a file input: a file dragged onto it is handed to the input (which keeps its label,
 * keyboard use and onChange), so choosing and dropping take one code path.
 */
export function DropZone({
  children,
  hint = 'or drop the file here',
  className,
  ...inputProps
}: {
  children: ReactElement<Record<string, unknown>>;
  hint?: string;
  className?: string;
  /** From a surrounding Field: passed on to the input, so its label and messages still name it. */
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  const defined = Object.fromEntries(Object.entries(inputProps).filter(([, value]) => value !== undefined));
  const input = isValidElement(children) && Object.keys(defined).length > 0 ? cloneElement(children, defined) : children;
  const container = useRef<HTMLDivElement>(null);
  const [over, setOver] = useState(false);
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files?.[0];
    const input = container.current?.querySelector<HTMLInputElement>('input[type="file"]');
    if (!file || !input) return;
    const transfer = new DataTransfer();
    transfer.items.add(file);
    input.files = transfer.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  };
  return (
    <div
      ref={container}
      data-testid="drop-zone"
      data-over={over || undefined}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={cn(
        'grid max-w-xl gap-2 rounded-lg border-2 border-dashed p-4 transition-colors',
        over ? 'border-blue-700 bg-blue-50' : 'border-slate-300 bg-white',
        className,
      )}
    >
      {input}
      <p className="flex items-center gap-2 text-sm text-slate-700">
        <Upload aria-hidden="true" className="h-4 w-4" />
        {hint}
      </p>
    </div>
  );
}
