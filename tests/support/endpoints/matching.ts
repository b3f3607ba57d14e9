import type { Classification } from './index';

export const ENDPOINTS: Record<string, Classification> = {
  'POST /api/trial-matcher/{trialId}/runs': 'tenant-row',
  'GET /api/trial-matcher/{trialId}': 'tenant-row',
  'GET /api/trial-matcher/{trialId}/matches': 'tenant-row',
  'GET /api/trial-matcher/{trialId}/candidates/{candidateId}': 'tenant-row',
  'POST /api/trial-matcher/{trialId}/candidates/{candidateId}/llm-judgements': 'tenant-row',
  'GET /api/trial-matcher/{trialId}/gaps': 'tenant-row',
  'POST /api/trial-matcher/{trialId}/what-if': 'tenant-row',
  'POST /api/trial-matcher/{trialId}/add-to-trial': 'tenant-row',
  'POST /api/trial-matcher/{trialId}/prescreen-form': 'tenant-row',
  'GET /api/trial-matcher/candidates/{candidateId}/other-trials': 'tenant-row',
  'GET /api/trial-matcher/candidates/{candidateId}/trials': 'tenant-row',
  'POST /api/trial-matcher/note-rereads': 'tenant-row',
  'GET /api/trial-matcher/note-rereads': 'tenant-row',
  'POST /api/candidates/fhir': 'tenant-row',
  'GET /api/candidates/{candidateId}/clinical': 'tenant-row',
  'POST /api/candidates/{candidateId}/clinical/notes': 'tenant-row',
  'DELETE /api/candidates/{candidateId}/clinical/notes/{noteId}': 'tenant-row',
  'POST /api/candidates/{candidateId}/clinical/facts': 'tenant-row',
  'DELETE /api/candidates/{candidateId}/clinical/facts/{factId}': 'tenant-row',
};
