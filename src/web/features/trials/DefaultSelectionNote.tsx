/**
 * An internal admin's empty list under the default organization selection: the demo, test and Cohortly
 * organizations are left out, so right after "Create demo data" the list reads empty. Shared by /trials and
 * /candidates so both say it in the same words.
 */
export function DefaultSelectionNote({ listing }: { listing: 'trials' | 'candidates' }) {
  return (
    <p className="mt-2" data-testid="default-selection-note">
      Organizations whose names contain “demo”, “test” or “Cohortly” are left out by default: choose one under Organizations above to see its {listing}.
    </p>
  );
}
