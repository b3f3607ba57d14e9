import { Link, useNavigate, useRouter } from '@tanstack/react-router';
import { ChevronDown, ChevronUp, ListChecks, Trash2, Users } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { siteLabel, TRIAL_STATUS_TRANSITIONS, type Trial, type TrialSite, type TrialStatus } from '../../../contract/trials';
import { phaseWords } from '../../../contract/words';
import { countWords } from '../../lib/counts';
import { Combobox } from '../../components/Combobox';
import { ConfirmDialog } from '../../components/dialogs';
import { RecordLoadError } from '../../components/ErrorCard';
import { ListState } from '../../components/ListState';
import { OffsetPager } from '../../components/Pager';
import { SearchBox } from '../../components/SearchBox';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, buttonClass, Card, CardContent, CardHeader, CardTitle, EmptyState, Table, Td, Th } from '../../components/ui';
import { useActiveOrganization, usePermissionSubject } from '../../lib/active-organization';
import { useOffsetPaging } from '../../lib/paging';
import { can } from '../../../contract/permissions';
import { timeZoneOptions } from '../../lib/time-zone-options';
import { errorMessage, formatDate, formatDateTime } from '../../lib/utils';
import { CriteriaLists, TrialFacts, EnrollmentProgress, needsReviewCount, StatusBadge } from './components';
import { ageRangeInWords, SEX_LABELS, siteAddress, STATUS_LABELS, transitionLabel } from './format';
import { useDeleteTrial, useTrialQuery, useTrialSitesQuery, useUpdateTrial, useUpdateTrialSite } from './queries';
import { TrialFormDialog } from './dialogs';

/** Owners and admins of the trial's organization, and internal admins, may delete it (as the server enforces). */
export function useCanDeleteTrial(trial: Trial | undefined) {
  const subject = usePermissionSubject();
  return trial !== undefined && can(subject, 'trial:delete', trial.organizationId);
}

function StatusMoveButton({ trial, to }: { trial: Trial; to: TrialStatus }) {
  const update = useUpdateTrial();
  const [open, setOpen] = useState(false);
  const label = transitionLabel(trial.status, to);
  const move = () =>
    update.mutate(
      { trialId: trial.id, input: { status: to } },
      {
        onSuccess: () => {
          toast.success(`${trial.title} is now ${STATUS_LABELS[to].toLowerCase()}`);
          setOpen(false);
        },
      },
    );
  if (to === 'closed') {
    // Closing cannot be undone: confirm first.
    return (
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        trigger={<Button variant="secondary">{label}</Button>}
        title="Close this trial?"
        description="A closed trial stops recruiting for good: it cannot be reopened."
        confirmLabel="Close trial"
        pending={update.isPending}
        onConfirm={move}
      />
    );
  }
  return (
    <Button variant={to === 'recruiting' ? 'primary' : 'secondary'} disabled={update.isPending} onClick={move}>
      {update.isPending ? 'Saving…' : label}
    </Button>
  );
}

function StatusCard({ trial }: { trial: Trial }) {
  const moves = TRIAL_STATUS_TRANSITIONS[trial.status];
  const history = [...trial.statusHistory].reverse();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Status</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap items-center gap-3">
          <span className="text-sm text-slate-800">Now:</span>
          <StatusBadge status={trial.status} />
        </div>
        {moves.length > 0 ? (
          <div className="flex flex-wrap gap-2" role="group" aria-label="Change status">
            {moves.map((to) => (
              <StatusMoveButton key={to} trial={trial} to={to} />
            ))}
          </div>
        ) : (
          <p className="text-sm text-slate-700">A closed trial has no further status.</p>
        )}
        <div>
          <h3 className="mb-2 text-sm font-semibold text-slate-900">History</h3>
          <ol className="relative grid gap-3 border-l border-slate-200 pl-4">
            {history.map((change, index) => (
              <li key={`${change.at}-${index}`} className="relative">
                <span aria-hidden="true" className="absolute -left-[21px] top-1.5 h-2.5 w-2.5 rounded-full border-2 border-white bg-blue-700" />
                <p className="text-sm text-slate-900">
                  {change.from ? (
                    <>
                      {STATUS_LABELS[change.from]} → <span className="font-medium">{STATUS_LABELS[change.to]}</span>
                    </>
                  ) : (
                    <>
                      Created as <span className="font-medium">{STATUS_LABELS[change.to].toLowerCase()}</span>
                    </>
                  )}
                </p>
                <p className="text-xs text-slate-700">
                  <time dateTime={change.at}>{formatDateTime(change.at)}</time>
                </p>
              </li>
            ))}
          </ol>
        </div>
      </CardContent>
    </Card>
  );
}

function OverviewCard({ trial, organizationName }: { trial: Trial; organizationName: string | undefined }) {
  const facts: Array<[string, React.ReactNode]> = [
    ['Public title', trial.publicTitle ?? '—'],
    [
      'NCT id',
      trial.nctId ? (
        <span key="nct" className="font-mono">
          {trial.nctId}
        </span>
      ) : (
        '—'
      ),
    ],
    ['Sponsor', trial.sponsor ?? '—'],
    ['Phase', trial.phase ? phaseWords(trial.phase) : '—'],
    ['Conditions', trial.conditions.length ? trial.conditions.join(', ') : '—'],
    ['Enrollment', <EnrollmentProgress key="enrollment" enrolled={trial.enrolledCount} target={trial.targetEnrollment} label="Enrollment" />],
    ['Candidates', countWords(trial.candidateCount)],
    ['Ages', ageRangeInWords(trial.minimumAgeYears, trial.maximumAgeYears)],
    ['Sex', SEX_LABELS[trial.sex]],
    ['Healthy volunteers', trial.healthyVolunteers == null ? 'Not stated' : trial.healthyVolunteers ? 'Accepted' : 'Not accepted'],
    ['Organization', organizationName ?? '—'],
    ['Created', formatDate(trial.createdAt)],
    ['Last changed', formatDate(trial.updatedAt)],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Overview</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        <TrialFacts facts={facts} className="sm:grid-cols-2 xl:grid-cols-3" />
        <div>
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-700">Summary</h3>
          <p className="mt-1 whitespace-pre-line text-sm text-slate-900">{trial.summary ?? 'No summary.'}</p>
        </div>
      </CardContent>
    </Card>
  );
}

const SITE_PAGE = 25;
const ZONE_SOURCE_LABELS = { geo: 'from its coordinates', region: 'from its state or country', manual: 'set by hand' } as const;

/** A site's time zone, or "time zone needed", with an inline editor. */
function SiteTimeZoneCell({ trialId, site }: { trialId: string; site: TrialSite }) {
  const update = useUpdateTrialSite();
  const [editing, setEditing] = useState(false);
  const [zone, setZone] = useState(site.timeZone ?? '');
  const [error, setError] = useState<string | null>(null);
  const label = siteLabel(site);
  const pickerId = useId();
  const zones = useMemo(() => (editing ? timeZoneOptions(site.timeZone) : []), [editing, site.timeZone]);
  if (editing) {
    const save = () => {
      const value = zone.trim();
      setError(null);
      update.mutate(
        { trialId, siteId: site.id, input: { timeZone: value || null } },
        { onSuccess: () => setEditing(false), onError: (failure) => setError(errorMessage(failure)) },
      );
    };
    return (
      <form
        className="grid gap-1"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <div className="flex flex-wrap items-center gap-1.5">
          <label htmlFor={pickerId} className="sr-only">
            Time zone of {label}
          </label>
          <Combobox
            id={pickerId}
            compact
            className="w-56"
            options={zones}
            value={zone}
            onChange={setZone}
            noneLabel="No time zone"
            searchLabel="Search time zones by city, region or UTC offset"
            searchPlaceholder="City, region or offset, e.g. Chicago"
            listLabel="Time zones"
            noun="time zones"
          />
          <Button type="submit" size="sm" disabled={update.isPending}>
            Save
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setEditing(false)}>
            Cancel
          </Button>
        </div>
        {error && <p className="text-xs text-red-700">{error}</p>}
      </form>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      {site.timeZone ? (
        <span title={site.timeZoneSource ? ZONE_SOURCE_LABELS[site.timeZoneSource] : undefined}>{site.timeZone}</span>
      ) : (
        <Badge tone="amber">Time zone needed</Badge>
      )}
      <Button
        variant="secondary"
        size="sm"
        aria-label={`${site.timeZone ? 'Change' : 'Set'} the time zone of ${label}`}
        onClick={() => {
          setZone(site.timeZone ?? '');
          setEditing(true);
        }}
      >
        {site.timeZone ? 'Change' : 'Set'}
      </Button>
    </div>
  );
}

function OwnSiteToggle({ trialId, site }: { trialId: string; site: TrialSite }) {
  const update = useUpdateTrialSite();
  return (
    <label className="inline-flex items-center gap-2 text-sm text-slate-800">
      <input
        type="checkbox"
        className="h-4 w-4 accent-blue-700"
        checked={site.isOwnSite}
        disabled={update.isPending}
        aria-label={`Ours: ${siteLabel(site)}`}
        onChange={(event) =>
          update.mutate(
            { trialId, siteId: site.id, input: { isOwnSite: event.target.checked } },
            {
              onSuccess: (saved) =>
                toast.success(saved.isOwnSite ? `${siteLabel(saved)} is marked as ours` : `${siteLabel(saved)} is no longer marked as ours`),
            },
          )
        }
      />
      Ours
    </label>
  );
}

/** The trial's sites, collapsed under a header with the count: searchable, paged, our sites first. */
function SitesSection({ trial }: { trial: Trial }) {
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState<string | undefined>();
  const paging = useOffsetPaging(SITE_PAGE, { filterKey: q ?? '' });
  const page = useTrialSitesQuery(trial.id, { q, offset: paging.offset, limit: paging.pageSize }, open);
  const sites = page.data?.sites ?? [];
  const own = trial.sites.filter((site) => site.isOwnSite).length;
  const zoneless = trial.sites.filter((site) => !site.timeZone).length;
  return (
    <section aria-labelledby="sites-heading" className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="sites-heading" className="text-lg font-semibold text-slate-900">
          Sites <span className="font-normal text-slate-700">({trial.sites.length})</span>
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          {own > 0 && <Badge tone="green">{own} ours</Badge>}
          {zoneless > 0 && <Badge tone="amber">{zoneless} need a time zone</Badge>}
          {trial.sites.length > 0 && (
            <Button variant="secondary" size="sm" aria-expanded={open} aria-controls="trial-sites" onClick={() => setOpen(!open)}>
              {open ? <ChevronUp aria-hidden="true" className="h-4 w-4" /> : <ChevronDown aria-hidden="true" className="h-4 w-4" />}
              {open ? 'Hide sites' : 'Show sites'}
            </Button>
          )}
        </div>
      </div>
      {trial.sites.length === 0 ? (
        <EmptyState title="No sites listed">Sites come from the ClinicalTrials.gov record’s locations.</EmptyState>
      ) : open ? (
        <div id="trial-sites" className="grid gap-3">
          <p className="text-sm text-slate-700">Mark the sites your organization runs as ours: they are listed and offered first when booking.</p>
          <SearchBox id="trial-sites-search" value={q} onChange={setQ} placeholder="Facility, city, state or country" />
          <ListState
            query={page}
            rowCount={sites.length}
            loadingLabel="Loading sites"
            errorTitle="Could not load the sites"
            empty={<EmptyState title="No site matches">Try another city, state or facility.</EmptyState>}
            pager={<OffsetPager {...paging} shown={sites.length} total={page.data?.total ?? 0} busy={page.isFetching} />}
          >
            <Table caption="Sites">
              <thead>
                <tr>
                  <Th>Facility</Th>
                  <Th>Location</Th>
                  <Th>Time zone</Th>
                  <Th>Ours</Th>
                </tr>
              </thead>
              <tbody>
                {sites.map((site) => (
                  <tr key={site.id} data-testid="site-row">
                    <Td className="font-medium text-slate-900">{site.name}</Td>
                    <Td>{siteAddress(site)}</Td>
                    <Td>
                      <SiteTimeZoneCell key={`${site.id}-${site.timeZone ?? ''}`} trialId={trial.id} site={site} />
                    </Td>
                    <Td>
                      <OwnSiteToggle trialId={trial.id} site={site} />
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </ListState>
        </div>
      ) : null}
    </section>
  );
}

function DeleteTrialButton({ trial }: { trial: Trial }) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteTrial();
  const navigate = useNavigate();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="secondary">
          <Trash2 aria-hidden="true" className="h-4 w-4" />
          Delete
        </Button>
      }
      title="Delete this trial?"
      description={`“${trial.title}” and its criteria are deleted. This cannot be undone.`}
      confirmLabel="Delete trial"
      pending={remove.isPending}
      onConfirm={() =>
        remove.mutate(trial.id, {
          onSuccess: async () => {
            toast.success('Trial deleted');
            setOpen(false);
            await navigate({ to: '/trials' });
          },
        })
      }
    />
  );
}

export function TrialDetailPage({ trialId }: { trialId: string }) {
  const query = useTrialQuery(trialId);
  const router = useRouter();
  const { organizations } = useActiveOrganization();
  const canDelete = useCanDeleteTrial(query.data);
  const title = query.data?.title;

  // The breadcrumb comes from the route loader: refresh it when the title changes.
  useEffect(() => {
    if (title) void router.invalidate({ filter: (match) => match.routeId === '/_authed/trials/$trialId' });
  }, [title, router]);

  if (query.isPending) return <Spinner label="Loading trial" />;
  if (query.isError) {
    return (
      <RecordLoadError
        error={query.error}
        heading="Trial"
        missing={{ heading: 'Trial not found', title: 'This trial does not exist' }}
        missingMessage="It may have been deleted, or it belongs to another organization."
        failed="Could not load this trial"
        onRetry={() => void query.refetch()}
        back={
          <Link to="/trials" className={buttonClass('secondary')}>
            Back to trials
          </Link>
        }
      />
    );
  }

  const trial = query.data;
  const review = needsReviewCount(trial.criteria);
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 max-w-3xl">
          <div className="mb-1 flex flex-wrap items-center gap-2">
            <StatusBadge status={trial.status} />
            {trial.nctId && <span className="font-mono text-xs text-slate-700">{trial.nctId}</span>}
          </div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{trial.title}</h1>
          {trial.publicTitle && trial.publicTitle !== trial.title && <p className="mt-1 text-sm text-slate-700">{trial.publicTitle}</p>}
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/trial-matcher/$id" params={{ id: trial.id }} className={buttonClass('primary')}>
            <Users aria-hidden="true" className="h-4 w-4" />
            Find matching candidates
          </Link>
          <TrialFormDialog trial={trial} triggerVariant="secondary" />
          {canDelete && <DeleteTrialButton trial={trial} />}
        </div>
      </div>

      <section aria-labelledby="criteria-heading" className="grid gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id="criteria-heading" className="text-lg font-semibold text-slate-900">
              Eligibility criteria
            </h2>
            {review > 0 && (
              <Badge tone="amber">
                {review} of {trial.criteria.length} need review
              </Badge>
            )}
          </div>
          <Link to="/admin/trial-criteria" search={{ trialId: trial.id }} className={buttonClass('secondary')}>
            <ListChecks aria-hidden="true" className="h-4 w-4" />
            Edit criteria
          </Link>
        </div>
        {trial.criteria.length === 0 ? (
          <EmptyState title="No criteria yet">Add inclusion and exclusion criteria with “Edit criteria”.</EmptyState>
        ) : (
          <CriteriaLists criteria={trial.criteria} idPrefix="trial" />
        )}
      </section>

      <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <OverviewCard trial={trial} organizationName={organizations.find((org) => org.id === trial.organizationId)?.name} />
        <StatusCard trial={trial} />
      </div>

      <SitesSection trial={trial} />
    </div>
  );
}
