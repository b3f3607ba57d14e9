import { Save, Send, Undo2 } from 'lucide-react';
import type { PrescreenForm } from '../../../contract/prescreen-forms';
import { Button } from '../../components/ui';

/** What a save says once done: a new version (results exist for the old one), published, back to draft, or saved. */
export function savedMessage(saved: PrescreenForm, previousVersion: number, status: 'published' | 'draft' | undefined): string {
  if (saved.version > previousVersion) {
    return `Saved as version ${saved.version}. Results already exist for version ${previousVersion}, which keeps the questions they were asked with.`;
  }
  if (status === 'published') return `Published version ${saved.version}. Staff can now run it from a candidate’s page.`;
  if (status === 'draft') return 'Moved back to draft.';
  return `Saved version ${saved.version}.`;
}

/** The builder's bar fixed at the bottom: whether changes are saved, and discard, save, move to draft, publish. */
export function FormSaveBar({
  status,
  dirty,
  pending,
  onDiscard,
  onSave,
}: {
  status: PrescreenForm['status'];
  dirty: boolean;
  pending: boolean;
  onDiscard: () => void;
  onSave: (status?: 'published' | 'draft') => void;
}) {
  return (
    <div className="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white/95 px-4 py-3 shadow-[0_-2px_8px_rgba(0,0,0,0.06)] md:left-60">
      <div className="flex flex-wrap items-center justify-end gap-3">
        <p className="mr-auto text-sm text-slate-800" aria-live="polite" data-testid="save-state">
          {pending ? 'Saving…' : dirty ? 'Unsaved changes' : 'All changes saved'}
        </p>
        <Button variant="secondary" onClick={onDiscard} disabled={!dirty || pending}>
          <Undo2 aria-hidden="true" className="h-4 w-4" />
          Discard changes
        </Button>
        <Button variant="secondary" onClick={() => onSave()} disabled={!dirty || pending}>
          <Save aria-hidden="true" className="h-4 w-4" />
          Save
        </Button>
        {status === 'published' ? (
          <Button variant="secondary" onClick={() => onSave('draft')} disabled={pending}>
            Move to draft
          </Button>
        ) : null}
        <Button onClick={() => onSave('published')} disabled={pending || (status === 'published' && !dirty)}>
          <Send aria-hidden="true" className="h-4 w-4" />
          {status === 'published' ? (dirty ? 'Save and publish' : 'Published') : dirty ? 'Save and publish' : 'Publish'}
        </Button>
      </div>
    </div>
  );
}
