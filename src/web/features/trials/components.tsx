import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { DraftCriterion, Trial, TrialCriterion, TrialStatus } from '../../../contract/trials';
import { phaseWords } from '../../../contract/words';
import { Badge, Table, Td, Th } from '../../components/ui';
import { RULE_SOURCE_LABELS, ruleInWords, shortTrialTitle, STATUS_LABELS, STATUS_TONES } from './format';
import { countWords } from '../../lib/counts';

export function StatusBadge({ status }: { status: TrialStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}

/** A trial's facts as terms and values, in a grid whose columns `className` sets. */
export function TrialFacts({ facts, className }: { facts: ReadonlyArray<readonly [string, ReactNode]>; className: string }) {
  return (
    <dl className={`grid gap-x-6 gap-y-3 ${className}`}>
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-700">{term}</dt>
          <dd className="text-sm text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function NeedsReviewBadge() {
  return (
    <Badge tone="amber" className="border border-amber-300">
      Needs review
    </Badge>
  );
}

/** The cohort a criterion applies to ("Healthy controls"): it does not apply to everybody. */
export function PopulationBadge({ population }: { population: string }) {
  return (
    <Badge tone="blue" className="border border-blue-200">
      <span className="sr-only">Applies to: </span>
      {population}
    </Badge>
  );
}

/** "3 of 40" with a bar; without a target, only the enrolled count. */
export function EnrollmentProgress({ enrolled, target, label }: { enrolled: number; target: number | null; label: string }) {
  if (!target) return <span className="text-sm text-slate-800">{countWords(enrolled)} enrolled</span>;
  const percent = Math.min(100, Math.round((enrolled / target) * 100));
  return (
    <div className="flex min-w-[8rem] items-center gap-2">
      <div
        role="progressbar"
        aria-label={`${label}: ${countWords(enrolled)} of ${countWords(target)} enrolled`}
        aria-valuemin={0}
        aria-valuemax={target}
        aria-valuenow={Math.min(enrolled, target)}
        className="h-2 w-20 shrink-0 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-blue-700" style={{ width: `${percent}%` }} />
      </div>
      <span className="whitespace-nowrap text-sm text-slate-800">
        {countWords(enrolled)} of {countWords(target)}
      </span>
    </div>
  );
}

type ShownCriterion = Pick<TrialCriterion, 'kind' | 'text' | 'rule' | 'ruleSource' | 'needsReview'> & { id?: string; population?: string | null };

function CriterionItem({ criterion }: { criterion: ShownCriterion }) {
  return (
    <li className="grid gap-1 rounded-md border border-slate-200 bg-white px-3 py-2">
      <p className="whitespace-pre-line text-sm text-slate-900">{criterion.text}</p>
      <div className="flex flex-wrap items-center gap-2 text-xs">
        {criterion.rule ? (
          <span className="rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-800">
            <span className="sr-only">Rule: </span>
            {ruleInWords(criterion.rule)}
          </span>
        ) : (
          <span className="text-slate-700">No structured rule</span>
        )}
        {criterion.rule && criterion.ruleSource && <span className="text-slate-700">{RULE_SOURCE_LABELS[criterion.ruleSource]}</span>}
        {criterion.needsReview && <NeedsReviewBadge />}
        {criterion.population && <PopulationBadge population={criterion.population} />}
      </div>
    </li>
  );
}

/** Inclusion and exclusion criteria, each list in order, with the rule in words and review flags. */
export function CriteriaLists({
  criteria,
  headingLevel = 'h3',
  idPrefix,
}: {
  criteria: Array<ShownCriterion | DraftCriterion>;
  headingLevel?: 'h2' | 'h3' | 'h4';
  idPrefix: string;
}) {
  const Heading = headingLevel;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      {(['inclusion', 'exclusion'] as const).map((kind) => {
        const items = criteria.filter((criterion) => criterion.kind === kind);
        const headingId = `${idPrefix}-${kind}`;
        return (
          <section key={kind} aria-labelledby={headingId} className="grid content-start gap-2">
            <Heading id={headingId} className="font-semibold text-slate-900">
              {kind === 'inclusion' ? 'Inclusion criteria' : 'Exclusion criteria'} <span className="font-normal text-slate-700">({items.length})</span>
            </Heading>
            {kind === 'exclusion' && items.length > 0 && <p className="text-xs text-slate-700">Rules are stated as what an eligible candidate must satisfy.</p>}
            {items.length === 0 ? (
              <p className="text-sm text-slate-700">None.</p>
            ) : (
              <ol className="grid gap-2">
                {items.map((criterion, index) => (
                  <CriterionItem key={('id' in criterion && criterion.id) || `${kind}-${index}`} criterion={criterion} />
                ))}
              </ol>
            )}
          </section>
        );
      })}
    </div>
  );
}

export function needsReviewCount(criteria: Array<{ needsReview: boolean }>) {
  return criteria.filter((criterion) => criterion.needsReview).length;
}

/** The trials table of /trials and /admin/trials. */
export function TrialTable({
  trials,
  showOrganization,
  organizationNames,
}: {
  trials: Trial[];
  showOrganization: boolean;
  organizationNames: Map<string, string>;
}) {
  return (
    <Table caption="Trials">
      <thead>
        <tr>
          <Th>Title</Th>
          <Th>NCT id</Th>
          <Th>Phase</Th>
          <Th>Status</Th>
          <Th>Enrollment</Th>
          <Th className="text-right">Candidates</Th>
          {showOrganization && <Th>Organization</Th>}
        </tr>
      </thead>
      <tbody>
        {trials.map((trial) => {
          const review = needsReviewCount(trial.criteria);
          return (
            <tr key={trial.id}>
              <Td className="max-w-md">
                <Link
                  to="/trials/$trialId"
                  params={{ trialId: trial.id }}
                  className="font-medium text-blue-800 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
                >
                  {shortTrialTitle(trial)}
                </Link>
                {review > 0 && <p className="mt-0.5 text-xs text-amber-900">{review === 1 ? '1 criterion needs review' : `${review} criteria need review`}</p>}
              </Td>
              <Td className="whitespace-nowrap font-mono text-xs">{trial.nctId ?? '—'}</Td>
              <Td className="whitespace-nowrap">{trial.phase ? phaseWords(trial.phase) : '—'}</Td>
              <Td>
                <StatusBadge status={trial.status} />
              </Td>
              <Td>
                <EnrollmentProgress enrolled={trial.enrolledCount} target={trial.targetEnrollment} label={`Enrollment of ${trial.title}`} />
              </Td>
              <Td className="text-right tabular-nums">{countWords(trial.candidateCount)}</Td>
              {showOrganization && <Td>{organizationNames.get(trial.organizationId) ?? '—'}</Td>}
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
