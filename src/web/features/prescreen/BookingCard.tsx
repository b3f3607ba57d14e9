import { CalendarPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { ownSitesFirst } from '../../../contract/trials';
import type { PrescreenResult, PrescreenReview } from '../../../contract/prescreen';
import { Combobox } from '../../components/Combobox';
import { SitePicker } from '../../components/SitePicker';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, Field, FieldError, Input, SubmitButton } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { timeZoneOptions } from '../../lib/time-zone-options';
import { serverProblems } from '../prescreen-forms/format';
import { useBook } from './queries';

/**
 * Book a screening visit for an approved prescreen: a site of the trial (searchable), its local time, the
 * duration. Loaded with the review's approval (ReviewPage), so the site picker stays out of the page's first
 * JavaScript.
 */
export function BookingCard({ result, review }: { result: PrescreenResult; review: PrescreenReview }) {
  const book = useBook();
  const sites = ownSitesFirst(review.trials.find((trial) => trial.id === result.trial.id)?.sites ?? []);
  // One site, or our own first site, is the likely choice; otherwise the coordinator picks (no silent first site).
  const [siteId, setSiteId] = useState<string | undefined>(sites.length === 1 || sites[0]?.isOwnSite ? sites[0]?.id : undefined);
  const site = sites.find((item) => item.id === siteId);
  // A site without a zone: the coordinator says which (never a default such as the browser's or UTC).
  const [timeZone, setTimeZone] = useState('');
  const [localTime, setLocalTime] = useState('');
  const [duration, setDuration] = useState('60');
  const [errors, setErrors] = useState<{ site?: string; timeZone?: string; localTime?: string; duration?: string }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const needsZone = Boolean(site && !site.timeZone);
  const zones = useMemo(() => (needsZone ? timeZoneOptions() : []), [needsZone]);
  const pickerId = `booking-site-${result.id}`;

  if (sites.length === 0) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Book a visit</CardTitle>
        </CardHeader>
        <CardContent>
          <p className="text-sm text-slate-700">The trial has no sites yet. Add a site to the trial to book a screening visit.</p>
        </CardContent>
      </Card>
    );
  }
  const zone = site?.timeZone || timeZone;
  const submit = () => {
    const next: typeof errors = {};
    if (!site) next.site = 'Choose a site';
    if (site && !site.timeZone && !timeZone) next.timeZone = 'Choose the time zone the site’s visits are in';
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(localTime)) next.localTime = 'Choose the date and time of the visit';
    const minutes = Number(duration);
    if (!Number.isInteger(minutes) || minutes < 5 || minutes > 480) next.duration = 'Enter 5 to 480 minutes';
    setErrors(next);
    setServerError(null);
    if (Object.keys(next).length || !site) return;
    book.mutate(
      { resultId: result.id, siteId: site.id, localTime, durationMinutes: minutes, ...(site.timeZone ? {} : { timeZone }) },
      {
        onSuccess: (booking) => {
          toast.success(`Visit booked at ${[booking.siteName, booking.siteCity].filter(Boolean).join(', ')}`);
          setLocalTime('');
        },
        onError: (failure) => setServerError(serverProblems(failure).message),
      },
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Book a visit</CardTitle>
        <CardDescription>A screening visit at one of the trial’s sites, at the site’s local time.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <div className="grid gap-1.5">
            <label htmlFor={pickerId} className="text-sm font-medium text-slate-900">
              Site <span className="font-normal text-slate-700">({sites.length})</span>
            </label>
            <SitePicker id={pickerId} sites={sites} value={siteId} onChange={setSiteId} invalid={Boolean(errors.site)} />
            <FieldError>{errors.site}</FieldError>
          </div>
          {site?.timeZone ? (
            <p className="text-sm text-slate-800" data-testid="site-time-zone">
              Times are in the site’s time zone: <span className="font-semibold">{site.timeZone}</span>
            </p>
          ) : site ? (
            <Field
              label="Time zone"
              error={errors.timeZone}
              hint={<span data-testid="time-zone-needed">Time zone needed: the site’s location does not tell it. Choose the zone its visits are in.</span>}
            >
              <Combobox
                options={zones}
                value={timeZone}
                onChange={setTimeZone}
                placeholder="Choose a time zone"
                searchLabel="Search time zones by city, region or UTC offset"
                searchPlaceholder="City, region or offset, e.g. Chicago"
                listLabel="Time zones"
                noun="time zones"
              />
            </Field>
          ) : null}
          <Field label={`Visit start (local time${zone ? `, ${zone}` : ''})`} error={errors.localTime}>
            <Input type="datetime-local" value={localTime} onChange={(event) => setLocalTime(event.target.value.slice(0, 16))} />
          </Field>
          <Field label="Duration (minutes)" error={errors.duration}>
            <Input inputMode="numeric" className="max-w-[8rem]" value={duration} onChange={(event) => setDuration(event.target.value)} />
          </Field>
          <FormError>{serverError}</FormError>
          <div>
            <SubmitButton pending={book.isPending} pendingLabel="Booking…" icon={<CalendarPlus aria-hidden="true" className="h-4 w-4" />}>
              Book visit
            </SubmitButton>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
