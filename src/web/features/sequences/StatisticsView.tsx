import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Sequence } from '../../../contract/sequences';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, EmptyState, Label, Select, Table, Td, Th } from '../../components/ui';
import { humanizeCode } from '../../lib/words';
import { ENROLLMENT_STATUS_LABELS, ENROLLMENT_STATUS_LIST, EXIT_REASON_LABELS, stepLabel } from './format';
import { useStatisticsQuery } from './queries';

const count = (value: number) => value.toLocaleString('en-US');

/** The statistics as the API answers them. */
type SequenceStatistics = NonNullable<ReturnType<typeof useStatisticsQuery>['data']>;

/** The funnel columns, in the order a message goes: reached, sent, delivered; then what came of it. */
const COLUMNS = [
  ['reached', 'Reached'],
  ['sent', 'Sent'],
  ['delivered', 'Delivered'],
  ['blocked', 'Blocked'],
  ['failed', 'Failed'],
  ['replied', 'Replied'],
  ['answered', 'Answered'],
  ['booked', 'Booked'],
  ['optedOut', 'Opted out'],
] as const;

/**
 * The Statistics tab: per step of one version, how many reached it and what became of them, as a chart (hidden
 * from assistive technology: the table says the same) and a table; and the enrollments by status and exit.
 * Loaded on demand: recharts only comes when someone opens the tab.
 */
export default function StatisticsView({
  sequence,
  version,
  onVersion,
}: {
  sequence: Sequence;
  version: number | undefined;
  onVersion: (version: number | undefined) => void;
}) {
  const shown = version && version <= sequence.currentVersion ? version : sequence.currentVersion;
  const query = useStatisticsQuery(sequence.id, shown);
  const versions = Array.from({ length: sequence.currentVersion }, (_, i) => sequence.currentVersion - i);

  let body;
  if (query.isPending) body = <Spinner label="Loading statistics" />;
  else if (query.isError) body = <ErrorCard title="Could not load statistics" error={query.error} onRetry={() => void query.refetch()} />;
  else {
    body = (
      <div className={query.isPlaceholderData ? 'grid gap-5 opacity-60' : 'grid gap-5'} aria-busy={query.isFetching}>
        <StepByStep stats={query.data} />
        <EnrollmentFigures stats={query.data} />
      </div>
    );
  }

  return (
    <div className="grid gap-4">
      {versions.length > 1 && (
        <div className="grid w-48 gap-1.5">
          <Label htmlFor="statistics-version">Version</Label>
          <Select
            id="statistics-version"
            value={String(shown)}
            onChange={(event) => onVersion(Number(event.target.value) === sequence.currentVersion ? undefined : Number(event.target.value))}
          >
            {versions.map((value) => (
              <option key={value} value={value}>
                Version {value}
                {value === sequence.currentVersion ? ' (current)' : ''}
              </option>
            ))}
          </Select>
        </div>
      )}
      {body}
    </div>
  );
}

/** Per step of the version: who reached it and what became of them, as a chart (hidden from assistive technology) and a table. */
function StepByStep({ stats }: { stats: SequenceStatistics }) {
  const reachedAny = stats.steps.some((step) => step.reached > 0);
  const chart = stats.steps.map((step) => ({
    name: stepLabel(step),
    Reached: step.reached,
    Sent: step.sent,
    Delivered: step.delivered,
    Replied: step.replied,
    Booked: step.booked,
  }));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Step by step</CardTitle>
        <CardDescription>
          For each step of version {stats.version}: who reached it, what was sent and delivered, and what the candidates did before the next message.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!reachedAny ? (
          <EmptyState title="Nobody has reached a step of this version yet">
            <p>Figures appear once candidates are enrolled and the first step runs.</p>
          </EmptyState>
        ) : (
          <div className="h-72 w-full" aria-hidden="true">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={chart} margin={{ left: 8, right: 16 }} accessibilityLayer={false}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="name" tick={{ fontSize: 12 }} />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Legend />
                <Bar dataKey="Reached" fill="#64748b" />
                <Bar dataKey="Sent" fill="#1d4ed8" />
                <Bar dataKey="Delivered" fill="#0f766e" />
                <Bar dataKey="Replied" fill="#b45309" />
                <Bar dataKey="Booked" fill="#15803d" />
              </BarChart>
            </ResponsiveContainer>
          </div>
        )}
        <Table caption={`Funnel by step, version ${stats.version}`}>
          <thead>
            <tr>
              <Th>Step</Th>
              {COLUMNS.map(([, label]) => (
                <Th key={label} className="text-right">
                  {label}
                </Th>
              ))}
            </tr>
          </thead>
          <tbody>
            {stats.steps.map((step) => (
              <tr key={`${step.stepIndex}-${step.key}`} data-testid="statistics-row">
                <Td className="whitespace-nowrap">
                  {stepLabel(step)} <span className="font-mono text-xs text-slate-700">{step.key}</span>
                </Td>
                {COLUMNS.map(([field, label]) => (
                  <Td key={label} className="text-right tabular-nums">
                    {count(step[field])}
                  </Td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      </CardContent>
    </Card>
  );
}

/** The version's enrollments by status, and why people left early. */
function EnrollmentFigures({ stats }: { stats: SequenceStatistics }) {
  const exits = Object.entries(stats.exits).filter(([, value]) => value > 0);
  return (
    <div className="grid gap-5 md:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle as="h3">Enrollments of this version</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
            {ENROLLMENT_STATUS_LIST.map((status) => (
              <div key={status} className="contents">
                <dt className="text-slate-700">{ENROLLMENT_STATUS_LABELS[status]}</dt>
                <dd className="text-right tabular-nums text-slate-900">{count(stats.enrollments[status] ?? 0)}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle as="h3">Why people left early</CardTitle>
        </CardHeader>
        <CardContent>
          {exits.length === 0 ? (
            <p className="text-sm text-slate-700">Nobody has left early.</p>
          ) : (
            <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm" data-testid="statistics-exits">
              {exits.map(([reason, value]) => (
                <div key={reason} className="contents">
                  <dt className="text-slate-700">{(EXIT_REASON_LABELS as Record<string, string>)[reason] ?? humanizeCode(reason)}</dt>
                  <dd className="text-right tabular-nums text-slate-900">{count(value)}</dd>
                </div>
              ))}
            </dl>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
