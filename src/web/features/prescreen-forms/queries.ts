import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApplyDeduplicationResponse,
  CreatePrescreenFormInput,
  DeduplicationChoice,
  DetectDuplicatesResponse,
  GenerateStudyBlocksResponse,
  PrescreenForm,
  StudyBlock,
  UpdatePrescreenFormInput,
} from '../../../contract/prescreen-forms';
import { invalidateOrg } from '../../lib/query';
import { api, getActiveOrganizationId } from '../../lib/api';
import { useActiveOrganization } from '../../lib/active-organization';
import { prescreenFormKeys, prescreenFormQueryOptions, prescreenFormsQueryOptions } from './keys';

export { prescreenFormKeys, prescreenFormQueryOptions, prescreenFormsQueryOptions } from './keys';

export function usePrescreenFormsQuery(params: { trialId?: string } = {}) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...prescreenFormsQueryOptions(activeOrganizationId, params), enabled: Boolean(activeOrganizationId) });
}

export function usePrescreenFormQuery(id: string | undefined) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...prescreenFormQueryOptions(activeOrganizationId, id ?? ''), enabled: Boolean(activeOrganizationId && id) });
}

function useStoreForm() {
  const queryClient = useQueryClient();
  return (form: PrescreenForm) => {
    queryClient.setQueryData(prescreenFormKeys.detail(getActiveOrganizationId(), form.id), form);
    return invalidateOrg(queryClient, undefined, 'prescreen-forms');
  };
}

export function useGenerateStudyBlocks() {
  return useMutation({
    mutationFn: (trialId: string) => api.post<GenerateStudyBlocksResponse>('/api/prescreen-forms/generate-study-blocks', { trialId }),
    meta: { silent: true },
  });
}

export function useCreatePrescreenForm() {
  const store = useStoreForm();
  return useMutation({
    mutationFn: (input: CreatePrescreenFormInput) => api.post<PrescreenForm>('/api/prescreen-forms/', input),
    onSuccess: (form) => store(form),
    meta: { silent: true },
  });
}

/** Failures show inline in the builder (server 400 messages), not as toasts. */
export function useUpdatePrescreenForm() {
  const store = useStoreForm();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdatePrescreenFormInput }) =>
      api.put<PrescreenForm>(`/api/prescreen-forms/${encodeURIComponent(id)}`, input),
    onSuccess: (form) => store(form),
    meta: { silent: true },
  });
}

export function useDetectDuplicates() {
  return useMutation({
    mutationFn: (blocks: StudyBlock[]) => api.post<DetectDuplicatesResponse>('/api/prescreen-forms/detect-duplicates', { blocks }),
    meta: { silent: true },
  });
}

export function useApplyDeduplication() {
  return useMutation({
    mutationFn: ({ blocks, pairs }: { blocks: StudyBlock[]; pairs: DeduplicationChoice[] }) =>
      api.post<ApplyDeduplicationResponse>('/api/prescreen-forms/apply-deduplication', { blocks, pairs }),
    meta: { silent: true },
  });
}
