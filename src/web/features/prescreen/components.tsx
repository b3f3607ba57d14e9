import type { AiRecommendation } from '../../../contract/prescreen';
import { Badge } from '../../components/ui';
import { cn } from '../../lib/utils';
import { RECOMMENDATION_CLASSES, RECOMMENDATION_LABELS, REVIEW_STATUS_LABELS, REVIEW_STATUS_TONES } from './format';

export function RecommendationBadge({ recommendation, className }: { recommendation: AiRecommendation; className?: string }) {
  return (
    <span className={cn('inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-semibold', RECOMMENDATION_CLASSES[recommendation], className)}>
      <span className="sr-only">AI recommendation: </span>
      {RECOMMENDATION_LABELS[recommendation]}
    </span>
  );
}

export function ReviewStatusBadge({ status }: { status: string }) {
  return <Badge tone={REVIEW_STATUS_TONES[status] ?? 'slate'}>{REVIEW_STATUS_LABELS[status] ?? status}</Badge>;
}
