import type { TrialStatus } from '../../../contract/trials';
import { Badge } from '../../components/ui';
import { STATUS_LABELS } from './format';

/**
 * Beside an agent whose trial is not recruiting: calls and the public chat reach nobody until the trial
 * starts recruiting (decision 023), so staff see why before they wonder.
 */
export function NotRecruitingBadge({ status, effect }: { status: TrialStatus | null | undefined; effect: string }) {
  if (!status || status === 'recruiting') return null;
  return (
    <Badge tone="amber" className="ml-2">
      Trial {STATUS_LABELS[status].toLowerCase()}: {effect}
    </Badge>
  );
}
