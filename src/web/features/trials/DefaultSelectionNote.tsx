/**
 * Under an empty list of a global admin's default selection: that selection leaves out the demo organization, so
 * right after "Create demo data" its trials, forms or agents are not there until it is chosen in the filter.
 */
export function DefaultSelectionNote({ things }: { things: string }) {
  return (
    <p className="mt-2" data-testid="default-selection-note">
      Organizations whose names contain “demo”, “test” or “Cohortly” are left out by default: choose one under Organizations above to see its {things}.
    </p>
  );
}
