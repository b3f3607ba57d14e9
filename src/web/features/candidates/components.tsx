import type { CandidateStatus } from '../../../contract/candidates';
import { Badge } from '../../components/ui';
import { CANDIDATE_STATUS_LABELS, CANDIDATE_STATUS_TONES } from './format';

export function CandidateStatusBadge({ status }: { status: CandidateStatus }) {
  return <Badge tone={CANDIDATE_STATUS_TONES[status]}>{CANDIDATE_STATUS_LABELS[status]}</Badge>;
}

/** A native checkbox with its label (the label may be visually hidden). */
export function Checkbox({
  label,
  hideLabel,
  checked,
  onChange,
  disabled,
  id,
  indeterminate,
}: {
  label: string;
  hideLabel?: boolean;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  id?: string;
  indeterminate?: boolean;
}) {
  return (
    <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-800">
      <input
        id={id}
        type="checkbox"
        className="h-4 w-4 rounded border-slate-400 accent-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        checked={checked}
        disabled={disabled}
        ref={(element) => {
          if (element) element.indeterminate = Boolean(indeterminate);
        }}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className={hideLabel ? 'sr-only' : undefined}>{label}</span>
    </label>
  );
}
