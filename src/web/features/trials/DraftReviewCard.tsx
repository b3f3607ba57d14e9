import { FileJson } from 'lucide-react';
import type { TrialDraft } from '../../../contract/trials';
import { phaseWords } from '../../../contract/words';
import { FormError } from '../../components/FormError';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui';
import { errorMessage } from '../../lib/utils';
import { CriteriaLists, TrialFacts, needsReviewCount } from './components';
import { ageRangeInWords, SEX_LABELS, siteAddress } from './format';

interface DraftReviewCardProps {
  draft: TrialDraft;
  saving: boolean;
  saveError: Error | null;
  onReset: () => void;
  onCreate: () => void;
}

/** Step 2 of the import: the trial as read from the record, nothing saved yet, and the button that creates it. */
export function DraftReviewCard({ draft, saving, saveError, onReset, onCreate }: DraftReviewCardProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>2. Review the draft</CardTitle>
        <CardDescription>
          Nothing is saved yet. Criteria marked “Needs review” could not be read into a rule, or should be checked by a person; you can fix them after creating
          the trial.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <DraftPreview draft={draft} />
        {saveError && <FormError>{errorMessage(saveError)}</FormError>}
        <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-4">
          <Button variant="secondary" onClick={onReset}>
            Choose another file
          </Button>
          <Button onClick={onCreate} disabled={saving}>
            <FileJson aria-hidden="true" className="h-4 w-4" />
            {saving ? 'Creating…' : 'Create draft trial'}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function DraftPreview({ draft }: { draft: TrialDraft }) {
  const review = needsReviewCount(draft.criteria);
  const facts: Array<[string, string]> = [
    ['Public title', draft.publicTitle ?? '—'],
    ['NCT id', draft.nctId ?? '—'],
    ['Sponsor', draft.sponsor ?? '—'],
    ['Phase', draft.phase ? phaseWords(draft.phase) : '—'],
    ['Conditions', draft.conditions.length ? draft.conditions.join(', ') : '—'],
    ['Target enrollment', draft.targetEnrollment == null ? '—' : String(draft.targetEnrollment)],
    ['Ages', ageRangeInWords(draft.minimumAgeYears, draft.maximumAgeYears)],
    ['Sex', SEX_LABELS[draft.sex]],
    ['Healthy volunteers', draft.healthyVolunteers == null ? 'Not stated' : draft.healthyVolunteers ? 'Accepted' : 'Not accepted'],
    ['Sites', draft.sites.length === 1 ? '1 site' : `${draft.sites.length} sites`],
  ];
  return (
    <div className="grid gap-6">
      <div>
        <p className="text-xs font-semibold uppercase tracking-wide text-slate-700">Title</p>
        <p className="text-lg font-semibold text-slate-900" data-testid="preview-title">
          {draft.title}
        </p>
      </div>
      <TrialFacts facts={facts} className="sm:grid-cols-2 lg:grid-cols-3" />
      {draft.sites.length > 0 && (
        <details className="rounded-md border border-slate-200 px-3 py-2">
          <summary className="cursor-pointer text-sm font-medium text-slate-900">
            Show the {draft.sites.length === 1 ? 'site' : `${draft.sites.length} sites`}
          </summary>
          <ul className="mt-2 grid gap-1 text-sm text-slate-800">
            {draft.sites.map((site, index) => (
              <li key={`${site.name}-${index}`}>
                <span className="font-medium">{site.name}</span> — {siteAddress(site)}
              </li>
            ))}
          </ul>
        </details>
      )}
      {draft.summary && <p className="whitespace-pre-line text-sm text-slate-800">{draft.summary}</p>}
      <div className="grid gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="text-base font-semibold text-slate-900">Eligibility</h3>
          {review > 0 ? (
            <Badge tone="amber">
              {review} of {draft.criteria.length} criteria need review
            </Badge>
          ) : (
            <Badge tone="green">All {draft.criteria.length} criteria read</Badge>
          )}
        </div>
        <CriteriaLists criteria={draft.criteria} idPrefix="preview" headingLevel="h4" />
      </div>
    </div>
  );
}
