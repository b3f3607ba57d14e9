import { useId, useState } from 'react';
import { Bar, BarChart, CartesianGrid, ErrorBar, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { SponsorDashboard } from '../../../../contract/sponsor-demo';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, EmptyState, Input, Label, Td, Th } from '../../../components/ui';
import { ScrollTable } from './ScrollTable';
import { count, decimal, formatDay, percent } from './format';

const DAY_MS = 86_400_000;
const daysFrom = (asOf: string, day: string) => Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${asOf}T00:00:00Z`)) / DAY_MS);

const STATUS_TEXT: Record<string, string> = {
  'no-target': 'The trial has no enrollment target, so there is no date to forecast.',
  'no-sites': 'No site is chosen.',
  'no-data': 'None of the chosen sites has recruited yet: there is no rate to forecast from.',
  'target-met': 'The target is already met.',
  'beyond-horizon': 'At the current pace the target is not reached within five years.',
};

/** "Mar 3, 2027 – Jun 1, 2028", "Mar 3, 2027 – after 5 years" or "After 5 years". */
function bandText(band: { low: string | null; high: string | null }) {
  if (!band.low) return 'After 5 years';
  return `${formatDay(band.low)} – ${band.high ? formatDay(band.high) : 'after 5 years'}`;
}

function extraSitesText(value: number | null) {
  if (value === null) return 'not reachable with up to 100 more sites';
  if (value === 0) return 'none: on track';
  return `${value} more ${value === 1 ? 'site' : 'sites'}`;
}

type Forecast = SponsorDashboard['forecast'];

/** The expected date with its 80% and 95% bands, as figures and as a range chart against the "finish by" date. */
function ExpectedDateCard({ forecast }: { forecast: Forecast }) {
  const hasDates = forecast.status === 'ok' || forecast.status === 'beyond-horizon';
  const deadlineDays = daysFrom(forecast.asOf, forecast.deadline);
  const at = (day: string | null) => (day ? daysFrom(forecast.asOf, day) : forecast.horizonDays);
  const p = {
    low95: at(forecast.band95.low),
    low80: at(forecast.band80.low),
    median: at(forecast.expectedDate),
    high80: at(forecast.band80.high),
    high95: at(forecast.band95.high),
  };
  const range = [
    {
      name: 'All chosen sites',
      offset: p.low95,
      outer1: p.low80 - p.low95,
      inner1: p.median - p.low80,
      inner2: p.high80 - p.median,
      outer2: p.high95 - p.high80,
    },
  ];
  const axisEnd = Math.max(p.high95, deadlineDays) + 30;
  const tickDate = (days: number) =>
    new Date(Date.parse(`${forecast.asOf}T00:00:00Z`) + days * DAY_MS).toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', year: '2-digit' });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Projected enrollment date</CardTitle>
        <CardDescription>
          {count(forecast.enrolled)} enrolled at the chosen sites{forecast.target ? ` of a target of ${count(forecast.target)}` : ''}. Each site recruits at its
          own rate, learned from its history and pooled across sites; a site not started yet opens in {forecast.newSiteOpensInDays} days at a typical site's
          rate.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!hasDates ? (
          <EmptyState title={forecast.status === 'target-met' ? 'Target met' : 'No forecast'}>
            <p>{STATUS_TEXT[forecast.status]}</p>
          </EmptyState>
        ) : (
          <>
            <dl className="grid gap-3 sm:grid-cols-3" data-testid="forecast-summary">
              <div className="rounded-lg border border-slate-200 p-4">
                <dt className="text-sm text-slate-700">Expected (median)</dt>
                <dd className="text-2xl font-semibold text-slate-900">{forecast.expectedDate ? formatDay(forecast.expectedDate) : 'After 5 years'}</dd>
              </div>
              <div className="rounded-lg border border-slate-200 p-4">
                <dt className="text-sm text-slate-700">80% likely</dt>
                <dd className="font-semibold text-slate-900">{bandText(forecast.band80)}</dd>
              </div>
              <div className="rounded-lg border border-slate-200 p-4">
                <dt className="text-sm text-slate-700">95% likely</dt>
                <dd className="font-semibold text-slate-900">{bandText(forecast.band95)}</dd>
              </div>
            </dl>
            {forecast.status === 'beyond-horizon' && (
              <p className="text-sm text-slate-800">{STATUS_TEXT['beyond-horizon']} More sites, or faster ones, would bring the date in: see below.</p>
            )}
            {forecast.band95.low !== null && (
              <div className="grid gap-2">
                <div className="h-36 w-full" aria-hidden="true">
                  <ResponsiveContainer width="100%" height="100%">
                    <BarChart data={range} layout="vertical" barSize={28} margin={{ top: 18, left: 16, right: 24 }} accessibilityLayer={false}>
                      <XAxis type="number" domain={[0, axisEnd]} tickFormatter={tickDate} />
                      <YAxis type="category" dataKey="name" width={120} tick={{ fontSize: 12 }} />
                      <Bar dataKey="offset" stackId="band" fill="transparent" isAnimationActive={false} />
                      <Bar dataKey="outer1" stackId="band" fill="#bfdbfe" isAnimationActive={false} />
                      <Bar dataKey="inner1" stackId="band" fill="#3b82f6" isAnimationActive={false} />
                      <Bar dataKey="inner2" stackId="band" fill="#3b82f6" isAnimationActive={false} />
                      <Bar dataKey="outer2" stackId="band" fill="#bfdbfe" isAnimationActive={false} />
                      <ReferenceLine x={p.median} stroke="#1e3a8a" strokeWidth={2} label={{ value: 'Median', position: 'insideTopLeft', fontSize: 12 }} />
                      <ReferenceLine x={deadlineDays} stroke="#b45309" strokeDasharray="4 4" label={{ value: 'Finish by', position: 'top', fontSize: 12 }} />
                    </BarChart>
                  </ResponsiveContainer>
                </div>
                <p className="text-xs text-slate-700">
                  Dark: the 80% band; light: the 95% band; the line: the median. The dashed line is the "finish by" date below.
                </p>
              </div>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** The "finish by" date (validated before it is sent) and the chance and sites it takes to make it. */
function SitesNeededCard({ forecast, onDeadline }: { forecast: Forecast; onDeadline: (deadline: string) => void }) {
  const dateId = useId();
  const [draft, setDraft] = useState(forecast.deadline);
  const [draftError, setDraftError] = useState<string | null>(null);
  const commit = (value: string) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
      setDraftError('Enter a date');
      return;
    }
    if (value <= forecast.asOf) {
      setDraftError('Choose a date after today');
      return;
    }
    setDraftError(null);
    if (value !== forecast.deadline) onDeadline(value);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Sites needed to finish by a date</CardTitle>
        <CardDescription>
          How many more sites like the average site (opening in {forecast.newSiteOpensInDays} days) would reach the target by then.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form
          className="flex flex-wrap items-end gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            commit(draft);
          }}
        >
          <div className="grid gap-1.5">
            <Label htmlFor={dateId}>Finish by</Label>
            <Input
              id={dateId}
              type="date"
              value={draft}
              min={forecast.asOf}
              onChange={(event) => setDraft(event.target.value)}
              onBlur={() => commit(draft)}
              aria-invalid={draftError ? true : undefined}
              aria-describedby={draftError ? `${dateId}-error` : undefined}
              className="w-48"
            />
          </div>
          <button
            type="submit"
            className="h-10 rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-700"
          >
            Update
          </button>
          {draftError && (
            <p id={`${dateId}-error`} className="text-sm text-red-700" role="alert">
              {draftError}
            </p>
          )}
        </form>
        {forecast.status === 'no-target' ? (
          <p className="text-sm text-slate-700">{STATUS_TEXT['no-target']}</p>
        ) : (
          <dl className="grid gap-3 sm:grid-cols-3" data-testid="sites-needed">
            <div className="rounded-lg border border-slate-200 p-4">
              <dt className="text-sm text-slate-700">Chance with the chosen sites</dt>
              <dd className="text-2xl font-semibold text-slate-900">{percent(forecast.probabilityByDeadline)}</dd>
            </div>
            <div className="rounded-lg border border-slate-200 p-4">
              <dt className="text-sm text-slate-700">For 80% confidence</dt>
              <dd className="font-semibold text-slate-900">{extraSitesText(forecast.extraSites80)}</dd>
            </div>
            <div className="rounded-lg border border-slate-200 p-4">
              <dt className="text-sm text-slate-700">For 95% confidence</dt>
              <dd className="font-semibold text-slate-900">{extraSitesText(forecast.extraSites95)}</dd>
            </div>
          </dl>
        )}
      </CardContent>
    </Card>
  );
}

/** Each chosen site's rate with its 80% interval, as a chart and a table. */
function SitePaceCard({ data }: { data: SponsorDashboard }) {
  const { forecast } = data;
  const names = new Map(data.sites.map((site) => [site.id, site.name]));
  const rates = forecast.sites.map((site) => ({
    name: names.get(site.siteId) ?? site.siteId,
    rate: site.ratePerMonth,
    interval: [
      Math.max(0, site.ratePerMonth - (site.ratePerMonthLow ?? site.ratePerMonth)),
      Math.max(0, (site.ratePerMonthHigh ?? site.ratePerMonth) - site.ratePerMonth),
    ],
  }));

  return (
    <Card>
      <CardHeader>
        <CardTitle>Each site's pace</CardTitle>
        <CardDescription>
          Enrollments a month as the model sees each site (with its 80% interval), and what it is expected to have enrolled by {formatDay(forecast.deadline)}.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="h-64 w-full" aria-hidden="true">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={rates} margin={{ left: 8, right: 16 }} accessibilityLayer={false}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="name" tick={{ fontSize: 12 }} interval={0} />
              <YAxis />
              <Tooltip />
              <Bar dataKey="rate" name="Enrollments / month" fill="#1d4ed8" isAnimationActive={false}>
                <ErrorBar dataKey="interval" width={6} stroke="#0f172a" />
              </Bar>
            </BarChart>
          </ResponsiveContainer>
        </div>
        <ScrollTable caption="Forecast by site">
          <thead>
            <tr>
              <Th>Site</Th>
              <Th className="text-right">Enrolled</Th>
              <Th className="text-right">Enrollments / month</Th>
              <Th className="text-right">80% interval</Th>
              <Th className="text-right">Expected by {formatDay(forecast.deadline)}</Th>
            </tr>
          </thead>
          <tbody>
            {forecast.sites.map((site) => (
              <tr key={site.siteId} data-testid="forecast-row">
                <Td>
                  {names.get(site.siteId) ?? site.siteId}
                  {!site.started && <span className="text-xs text-slate-700"> (opens in {forecast.newSiteOpensInDays} days)</span>}
                </Td>
                <Td className="text-right tabular-nums">{count(site.enrolled)}</Td>
                <Td className="text-right tabular-nums">{decimal(site.ratePerMonth, 2)}</Td>
                <Td className="text-right tabular-nums">
                  {decimal(site.ratePerMonthLow, 2)}–{decimal(site.ratePerMonthHigh, 2)}
                </Td>
                <Td className="text-right tabular-nums">{decimal(site.expectedByDeadline)}</Td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </CardContent>
    </Card>
  );
}

/**
 * Forecasting: the Poisson-gamma model (docs/forecasting.md) over the chosen sites: the expected date with its 80%
 * and 95% bands as a range chart, each site's rate with its 80% interval, and the sites needed to finish by a date.
 */
export default function ForecastingTab({ data, onDeadline }: { data: SponsorDashboard; onDeadline: (deadline: string) => void }) {
  return (
    <div className="grid gap-5">
      <ExpectedDateCard forecast={data.forecast} />
      <SitesNeededCard forecast={data.forecast} onDeadline={onDeadline} />
      {data.forecast.sites.length > 0 && <SitePaceCard data={data} />}
    </div>
  );
}
