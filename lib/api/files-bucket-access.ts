/** Environment variable naming the evidence files bucket (shared/storage/file-store.ts). */
export const FILES_BUCKET_VARIABLE = 'FILES_BUCKET';

/**
 * What a route's function may do in the evidence files bucket, by route name: `CreateFile` writes
 * a file's bytes (s3:PutObject), the dispute evidence routes (names starting `SubmitDisputeEvidence`) read them
 * to pass them to a processor (s3:GetObject); nothing else touches the bucket (`GetFile` answers metadata from
 * the table only), and no function may list or delete. Objects only (`<bucket>/*`); the functions with access
 * get `FILES_BUCKET`.
 */
export function filesBucketAccess(routeName: string): readonly string[] {
  if (routeName === 'CreateFile') return ['s3:PutObject'];
  if (routeName.startsWith('SubmitDisputeEvidence')) return ['s3:GetObject'];
  return [];
}
