import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/** One cdk-nag finding accepted on purpose, with the reason an auditor reads. */
export interface NagAcknowledgement {
  /** Rule id, narrowed to one finding where the rule reports several, e.g. `AwsSolutions-IAM5[Resource::*]`. */
  id: string;
  reason: string;
}

/**
 * Acknowledges cdk-nag findings on the one resource they concern (never on a
 * whole stack), through CDK's native `Validations.of(...).acknowledge` that
 * cdk-nag 3 reads.
 */
export function acknowledgeNagFindings(resource: IConstruct, findings: readonly NagAcknowledgement[]): void {
  if (process.env.NAG_SHOW_ALL) return;
  Validations.of(resource).acknowledge(...findings);
}
