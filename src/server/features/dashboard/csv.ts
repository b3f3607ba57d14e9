import type { DashboardTab, DashboardTabData } from '../../../contract/dashboard';

/**
 * A tab's numbers as CSV in long form (decision 032): one row per number, `section,group,metric,value`, so
 * every tab exports with the same four columns and a spreadsheet pivots it as needed. The first rows say
 * which filters made it, and for a tab with an over-time series its bucket (day, week or month); the series'
 * sections name it too (`by_month`, `spend_by_month`, `enrollment_by_month`).
 */
type Cell = string | number | null | undefined;
type Row = [section: string, group: Cell, metric: string, value: Cell];

function quote(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  let text = String(cell);
  // A cell that a spreadsheet would read as a formula is prefixed (CSV injection).
  if (/^[=+\-@\t\r]/.test(text) && typeof cell !== 'number') text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const counts = (section: string, group: Cell, values: Record<string, Cell>): Row[] =>
  Object.entries(values).map(([metric, value]) => [section, group, metric, value]);

function rowsOf<T extends DashboardTab>(tab: T, data: DashboardTabData[T]): Row[] {
  switch (tab) {
    case 'funnel-breakdown': {
      const d = data as DashboardTabData['funnel-breakdown'];
      return [
        ...d.stages.flatMap((s): Row[] => [
          ['stages', s.stage, 'count', s.count],
          ['stages', s.stage, 'conversion', s.conversion],
        ]),
        ...d.byTrial.flatMap((t) => counts('by_trial', t.trialTitle ?? '(no trial)', t.counts)),
        ...d.bySource.flatMap((s) => counts('by_source', s.source, s.counts)),
        ...d.dropOff.map((r): Row => ['drop_off', r.reason, 'count', r.count]),
      ];
    }
    case 'prescreen-analytics': {
      const d = data as DashboardTabData['prescreen-analytics'];
      return [
        ...counts('totals', null, d.totals),
        ...d.overTime.flatMap((p) => counts(`by_${d.bucket}`, p.period, { PASS: p.PASS, FAIL: p.FAIL, INCONCLUSIVE: p.INCONCLUSIVE, POTENTIAL: p.POTENTIAL })),
        ...counts('hours_to_result', null, d.hoursToResult),
        ...d.failingCriteria.map((c): Row => ['failing_criteria', `${c.trialTitle ?? c.trialId}: ${c.text}`, 'failures', c.failures]),
        ...counts('review', null, d.review),
      ];
    }
    case 'patient-satisfaction': {
      const d = data as DashboardTabData['patient-satisfaction'];
      return [
        ...counts('totals', null, { ratings: d.ratings, csat: d.csat, average: d.average }),
        ...d.distribution.map((r): Row => ['distribution', r.rating, 'count', r.count]),
        ...d.byChannel.flatMap((c) => counts('by_channel', c.source, { ratings: c.ratings, csat: c.csat, average: c.average })),
        ...d.byAgent.flatMap((a) => counts('by_agent', a.agentName ?? a.agentId ?? '(no agent)', { ratings: a.ratings, csat: a.csat, average: a.average })),
      ];
    }
    case 'trial-lifecycle': {
      const d = data as DashboardTabData['trial-lifecycle'];
      return d.trials.flatMap((t): Row[] => [
        ['trial', t.title, 'status', t.status],
        ['trial', t.title, 'target_enrollment', t.targetEnrollment],
        ['trial', t.title, 'enrolled_in_range', t.enrolledInRange],
        ['trial', t.title, 'enrolled_total', t.enrolledTotal],
        ...t.daysInStatus.map((s): Row => ['days_in_status', t.title, s.status, s.days]),
        ...t.enrollment.map((p): Row => [`enrollment_by_${d.bucket}`, t.title, p.period, p.cumulative]),
      ]);
    }
    case 'trial-matcher': {
      const d = data as DashboardTabData['trial-matcher'];
      return [
        ...counts('totals', null, d.totals),
        ...d.trials.flatMap((t) =>
          counts('by_trial', t.trialTitle, { found: t.found, likely: t.likely, possible: t.possible, contacted: t.contacted, converted: t.converted }),
        ),
        ...d.topGaps.flatMap((g) => counts('top_gaps', `${g.trialTitle}: ${g.text}`, { not_met: g.notMet, unknown: g.unknown })),
      ];
    }
    case 'costs': {
      const d = data as DashboardTabData['costs'];
      return [
        ['totals', null, 'spend_usd', d.total],
        ...d.byChannel.map((c): Row => ['by_channel', `${c.source}/${c.label}`, 'spend_usd', c.amount]),
        ...d.overTime.map((p): Row => [`spend_by_${d.bucket}`, p.period, 'spend_usd', p.amount]),
        ...d.unitCosts.flatMap((u): Row[] => [
          ['unit_costs', u.unit, 'count', u.count],
          ['unit_costs', u.unit, 'cost_usd', u.cost],
        ]),
      ];
    }
    case 'customer-overview': {
      const d = data as DashboardTabData['customer-overview'];
      return d.organizations.flatMap((o) =>
        counts('organization', o.name, {
          events: o.events,
          candidates_created: o.candidatesCreated,
          enrolled: o.enrolled,
          spend_usd: o.spend,
          recruiting_trials: o.recruitingTrials,
          last_activity_day: o.lastActivityDay,
          last_sign_in_at: o.lastSignInAt,
          opt_out_rate_percent: o.optOutRate,
          flags: o.flags.join(' '),
        }),
      );
    }
  }
  return [];
}

export function toCsv<T extends DashboardTab>(tab: T, data: DashboardTabData[T]): string {
  const { filters } = data;
  const header: Row[] = [
    ['filters', null, 'from', filters.from ?? 'all'],
    ['filters', null, 'to', filters.to],
    ['filters', null, 'source', filters.source ?? 'all'],
    ['filters', null, 'organizations', filters.organizationIds.length],
  ];
  // The over-time series' bucket (decision 044): their periods are the first days of days, weeks or months.
  if ('bucket' in data) header.push(['filters', null, 'bucket', data.bucket]);
  const lines = [['section', 'group', 'metric', 'value'].join(','), ...[...header, ...rowsOf(tab, data)].map((row) => row.map(quote).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}
