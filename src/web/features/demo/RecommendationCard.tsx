import type { PrescreenResult } from '../../../contract/prescreen';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui';
import { RecommendationBadge } from '../prescreen/components';
import { answerInWords } from '../prescreen/format';

/** A prescreen result as a prospect should read it: the AI's recommendation, its reasons, and the answers behind it. */
export function RecommendationCard({ result, title = 'AI recommendation', description }: { result: PrescreenResult; title?: string; description?: string }) {
  return (
    <Card data-testid="demo-recommendation">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          {title} <RecommendationBadge recommendation={result.aiRecommendation} />
        </CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className="grid gap-4">
        <div>
          <h3 className="text-sm font-semibold text-slate-900">Why</h3>
          <ul className="mt-1 list-disc pl-5 text-sm text-slate-800">
            {result.aiReasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </div>
        <div>
          <h3 className="text-sm font-semibold text-slate-900">Answers</h3>
          <dl className="mt-1 grid gap-1.5 text-sm">
            {result.answers.map((answer) => (
              <div key={answer.questionId} className="grid gap-0.5 sm:grid-cols-[2fr_1fr] sm:gap-3">
                <dt className="text-slate-700">{answer.question}</dt>
                <dd className="font-medium text-slate-900">{answerInWords(answer)}</dd>
              </div>
            ))}
          </dl>
        </div>
      </CardContent>
    </Card>
  );
}
