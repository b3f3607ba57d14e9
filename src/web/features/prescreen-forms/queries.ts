import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatePrescreenFormInput, DeduplicationChoice, PrescreenForm, StudyBlock, UpdatePrescreenFormInput } from '../../../contract/prescreen-forms';
import { invalidateOrg } from '../../lib/query';
import { api, getActiveOrganizationId } from '../../lib/api';
import { useActiveOrganization } from '../../lib/active-organization';
import { type PrescreenFormListParams, prescreenFormKeys, prescreenFormQueryOptions, prescreenFormsQueryOptions } from './keys';
import * as endpoints from '../../lib/api-operations.gen';

export { prescreenFormKeys, prescreenFormQueryOptions, prescreenFormsQueryOptions } from './keys';

export function usePrescreenFormsQuery(params: PrescreenFormListParams = {}) {
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
    mutationFn: (trialId: string) => api.call(endpoints.generatePrescreenStudyBlocks, { body: { trialId } }),
    meta: { silent: true },
  });
}

export function useCreatePrescreenForm() {
  const store = useStoreForm();
  return useMutation({
    mutationFn: (input: CreatePrescreenFormInput) => api.call(endpoints.createPrescreenForm, { body: input }),
    onSuccess: (form) => store(form),
    meta: { silent: true },
  });
}

/** Failures show inline in the builder (server 400 messages), not as toasts. */
export function useUpdatePrescreenForm() {
  const store = useStoreForm();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdatePrescreenFormInput }) => api.call(endpoints.replacePrescreenForm, { params: { id }, body: input }),
    onSuccess: (form) => store(form),
    meta: { silent: true },
  });
}

export function useDetectDuplicates() {
  return useMutation({
    mutationFn: (blocks: StudyBlock[]) => api.call(endpoints.detectPrescreenDuplicates, { body: { blocks } }),
    meta: { silent: true },
  });
}

export function useApplyDeduplication() {
  return useMutation({
    mutationFn: ({ blocks, pairs }: { blocks: StudyBlock[]; pairs: DeduplicationChoice[] }) =>
      api.call(endpoints.applyPrescreenDeduplication, { body: { blocks, pairs } }),
    meta: { silent: true },
  });
}
