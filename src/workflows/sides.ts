import type { WorkflowInstance } from '../../protocol/workflows.ts';

/** The user's own client on an instance and the other party: the side the user holds (the initiator's when both or neither). */
export function sidesOf(instance: Pick<WorkflowInstance, 'initiatorClient' | 'partnerClient' | 'initiatorName' | 'partnerName'>, clientCodes: readonly string[]) {
  const isPartner = !clientCodes.includes(instance.initiatorClient) && clientCodes.includes(instance.partnerClient);
  return isPartner
    ? { own: instance.partnerClient, other: instance.initiatorClient, otherName: instance.initiatorName, isPartner }
    : { own: instance.initiatorClient, other: instance.partnerClient, otherName: instance.partnerName, isPartner };
}
