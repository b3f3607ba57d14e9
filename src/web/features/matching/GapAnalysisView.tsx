import { useId, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { CriterionRule } from '../../../contract/trials';
import type { GapAnalysis, MatchClass, WhatIfResult } from '../../../contract/matching';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, EmptyState, Input, Label, Table, Td, Th } from '../../components/ui';
import { errorMessage } from '../../lib/utils';
import { NextQuestions } from './NextQuestions';
import { useGapAnalysis, useMatchOverview, useWhatIf } from './queries';

const count = (value: number) => value.toLocaleString('en-US');
const short = (text: string, max = 48) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function PoolCard({ gaps }: { gaps: GapAnalysis }) {
  const pool = gaps.counts.likely + gaps.counts.possible;
  const target = gaps.targetEnrollment;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Pool against target</CardTitle>
        <CardDescription>Candidates not excluded: likely eligible ones first, then those with key facts still unknown.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2 text-sm text-slate-800">
        <p>
          {count(gaps.counts.likely)} likely and {count(gaps.counts.possible)} possibly eligible: a pool of <strong>{count(pool)}</strong>
          {target ? (
            <>
              {' '}
              for a target of <strong>{count(target)}</strong> (
              {pool >= target ? `${(pool / target).toFixed(1)} candidates per place` : `${count(target - pool)} short before any screen failure`}).
            </>
          ) : (
            '. The trial has no target enrollment set.'
          )}
        </p>
      </CardContent>
    </Card>
  );
}

/** The what-if editor of one criterion: drop it, or (for an age rule) move its bounds. */
function WhatIf({ trialId, criterionId, text, rule }: { trialId: string; criterionId: string; text: string; rule: CriterionRule | null }) {
  const whatIf = useWhatIf(trialId);
  const [result, setResult] = useState<{ label: string; answer: WhatIfResult } | null>(null);
  const [min, setMin] = useState(rule?.type === 'age' && rule.minYears != null ? String(rule.minYears) : '');
  const [max, setMax] = useState(rule?.type === 'age' && rule.maxYears != null ? String(rule.maxYears) : '');
  const id = useId();
  const run = (label: string, next: CriterionRule | null) =>
    whatIf.mutate({ criterionId, rule: next }, { onSuccess: (answer) => setResult({ label, answer }) });
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-end gap-2">
        <Button size="sm" variant="secondary" disabled={whatIf.isPending} onClick={() => run(`Without “${short(text, 60)}”`, null)}>
          What if dropped?
        </Button>
        {rule?.type === 'age' && (
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              const minYears = min.trim() === '' ? null : Number(min);
              const maxYears = max.trim() === '' ? null : Number(max);
              run(`Ages ${minYears ?? 'any'}–${maxYears ?? 'any'}`, { type: 'age', minYears, maxYears });
            }}
          >
            <div className="grid gap-1">
              <Label htmlFor={`${id}-min`}>Min age</Label>
              <Input id={`${id}-min`} inputMode="numeric" className="w-20" value={min} onChange={(event) => setMin(event.target.value)} />
            </div>
            <div className="grid gap-1">
              <Label htmlFor={`${id}-max`}>Max age</Label>
              <Input id={`${id}-max`} inputMode="numeric" className="w-20" value={max} onChange={(event) => setMax(event.target.value)} />
            </div>
            <Button size="sm" type="submit" variant="secondary" disabled={whatIf.isPending}>
              Try these ages
            </Button>
          </form>
        )}
      </div>
      {whatIf.isPending && <p className="text-sm text-slate-700">Counting…</p>}
      {whatIf.isError && <p className="text-sm text-red-800">{errorMessage(whatIf.error)}</p>}
      {result && !whatIf.isPending && (
        <p className="text-sm text-slate-900" role="status">
          {result.label}: {result.answer.admitted > 0 ? <strong>adds {count(result.answer.admitted)}</strong> : 'adds nobody'}
          {result.answer.newlyExcluded > 0 && <>, excludes {count(result.answer.newlyExcluded)} more</>} (likely {count(result.answer.before.likely)} →{' '}
          {count(result.answer.after.likely)}, possible {count(result.answer.before.possible)} → {count(result.answer.after.possible)}).
        </p>
      )}
    </div>
  );
}

export default function GapAnalysisView({
  trialId,
  onShowCriterion,
}: {
  trialId: string;
  onShowCriterion: (criterionId: string, matchClass: MatchClass | undefined) => void;
}) {
  const query = useGapAnalysis(trialId);
  const overview = useMatchOverview(trialId);
  if (query.isPending) return <Spinner label="Loading gap analysis" />;
  if (query.isError) return <ErrorCard title="Could not load the gap analysis" error={query.error} onRetry={() => void query.refetch()} />;
  const gaps = query.data;
  const rules = new Map((overview.data?.criteria ?? []).map((criterion) => [criterion.id, criterion.rule]));
  const chart = gaps.excluding.slice(0, 10).map((row) => ({ name: short(row.text), Excluded: row.excluded, 'Only reason': row.onlyBlocker }));
  return (
    <div className="grid gap-5">
      <PoolCard gaps={gaps} />
      <Card>
        <CardHeader>
          <CardTitle>What excludes candidates</CardTitle>
          <CardDescription>
            Criteria by how many candidates they exclude; “only reason” counts those a change to that criterion alone would admit.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {gaps.excluding.length === 0 ? (
            <EmptyState title="No criterion excludes anyone">On what is known, nobody is ruled out.</EmptyState>
          ) : (
            <>
              <div className="h-72 w-full" aria-hidden="true">
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart data={chart} layout="vertical" margin={{ left: 16, right: 16 }} accessibilityLayer={false}>
                    <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                    <XAxis type="number" allowDecimals={false} />
                    <YAxis type="category" dataKey="name" width={220} tick={{ fontSize: 12 }} />
                    <Tooltip />
                    <Legend />
                    <Bar dataKey="Excluded" fill="#b45309" />
                    <Bar dataKey="Only reason" fill="#1d4ed8" />
                  </BarChart>
                </ResponsiveContainer>
              </div>
              <Table caption="Criteria that exclude candidates, most first">
                <thead>
                  <tr>
                    <Th>Criterion</Th>
                    <Th>Excluded</Th>
                    <Th>Only reason</Th>
                    <Th>What if</Th>
                  </tr>
                </thead>
                <tbody>
                  {gaps.excluding.map((row) => (
                    <tr key={row.criterionId}>
                      <Td className="max-w-md">
                        <span className="mr-2 text-xs font-medium uppercase text-slate-700">{row.kind}</span>
                        <button
                          type="button"
                          className="text-left text-blue-800 underline-offset-4 hover:underline"
                          onClick={() => onShowCriterion(row.criterionId, 'excluded')}
                        >
                          {row.text}
                        </button>
                      </Td>
                      <Td>{count(row.excluded)}</Td>
                      <Td>{count(row.onlyBlocker)}</Td>
                      <Td>
                        <WhatIf trialId={trialId} criterionId={row.criterionId} text={row.text} rule={rules.get(row.criterionId) ?? null} />
                      </Td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>What to ask next</CardTitle>
          <CardDescription>
            Among candidates not excluded, the criteria nothing on record decides. Key facts (who the trial is for) first: asking them moves people from
            “possibly” to “likely” or out.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {gaps.unknown.length === 0 ? (
            <EmptyState title="Nothing left unknown">Every criterion is decided for every candidate not excluded.</EmptyState>
          ) : (
            <div className="grid gap-3">
              <NextQuestions trialId={trialId} criterionIds={gaps.unknown.map((row) => row.criterionId)} />
              <Table caption="Criteria most often unknown">
                <thead>
                  <tr>
                    <Th>Criterion</Th>
                    <Th>Unknown for</Th>
                    <Th>Kind</Th>
                  </tr>
                </thead>
                <tbody>
                  {gaps.unknown.map((row) => (
                    <tr key={row.criterionId}>
                      <Td className="max-w-md">
                        <button
                          type="button"
                          className="text-left text-blue-800 underline-offset-4 hover:underline"
                          onClick={() => onShowCriterion(row.criterionId, undefined)}
                        >
                          {row.text}
                        </button>
                      </Td>
                      <Td>{count(row.unknown)}</Td>
                      <Td>{row.key ? <Badge tone="amber">Key fact</Badge> : <span className="text-sm text-slate-700">Asked at prescreen</span>}</Td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
