import { FileJson, Plus } from 'lucide-react';
import { lazyDialog } from '../../components/lazy-dialog';
import { Button } from '../../components/ui';

export interface AddFactDialogProps {
  candidateId: string;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

export interface FhirImportDialogProps {
  /** Given to global admins, who choose where a new candidate goes. */
  organizations?: Array<{ id: string; name: string }>;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

export const ADD_FACT_TITLE = 'Add a fact';
export const FHIR_IMPORT_TITLE = 'Import a health record';

const LazyAddFactDialog = lazyDialog<AddFactDialogProps>(
  () => import('./AddFactDialog').then((module) => module.AddFactDialog),
  () => ADD_FACT_TITLE,
);
const LazyFhirImportDialog = lazyDialog<FhirImportDialogProps>(
  () => import('./FhirImportDialog').then((module) => module.FhirImportDialog),
  () => FHIR_IMPORT_TITLE,
);

/** "Add fact": the form (react-hook-form, zod, the contract's rules) loads when the dialog opens. */
export function AddFactDialog(props: AddFactDialogProps) {
  return (
    <LazyAddFactDialog
      {...props}
      trigger={
        <Button variant="secondary" size="sm">
          <Plus aria-hidden="true" className="h-4 w-4" />
          Add fact
        </Button>
      }
    />
  );
}

/** "Import health record": one patient's FHIR R4 bundle (a .json file) becomes a candidate with facts. */
export function FhirImportDialog({ variant = 'secondary', ...props }: FhirImportDialogProps & { variant?: 'primary' | 'secondary' }) {
  return (
    <LazyFhirImportDialog
      {...props}
      trigger={
        <Button variant={variant}>
          <FileJson aria-hidden="true" className="h-4 w-4" />
          Import health record
        </Button>
      }
    />
  );
}
