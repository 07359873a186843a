/**
 * The evidence files bucket (lib/data-stack.ts, lib/api/files-bucket-access.ts `filesBucketAccess`): private,
 * encrypted, TLS only, expiring, retained on prod; only the file upload and dispute evidence functions may touch
 * its objects, each with its own action. Written to hold whether or not the file and dispute routes are in
 * shared/api/routes.ts yet: the grants are read from whichever functions carry `FILES_BUCKET`, and a route
 * table with the routes added is synthesized too.
 */
import { App, Validations } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { FILES_BUCKET_VARIABLE, filesBucketAccess } from '../../lib/api/files-bucket-access';
import { FILES_BUCKET_LIFECYCLE } from '../../lib/data-stack';
import { buildApp } from '../../lib/switchyard-app';
import { ROUTES, type RouteDefinition } from '../../shared/api/routes';
import { FILE_RETENTION_DAYS } from '../../shared/domain/file';
import { alarmContext, type Resource, synthStage } from './synth-stage';

const FILE_ROUTES: RouteDefinition[] = [
  {
    method: 'POST',
    path: '/files',
    entry: 'functions/files/create-file.ts',
    name: 'CreateFile',
    access: 'write',
    auth: true,
    connectors: false,
  },
  {
    method: 'GET',
    path: '/files/{file_id}',
    entry: 'functions/files/get-file.ts',
    name: 'GetFile',
    access: 'read',
    auth: true,
    connectors: false,
  },
  {
    method: 'POST',
    path: '/disputes/{dispute_id}/evidence',
    entry: 'functions/files/get-file.ts', // any module: only the name matters here
    name: 'SubmitDisputeEvidence',
    access: 'write',
    auth: true,
    connectors: true,
  },
];
const withFileRoutes = [...ROUTES.filter((r) => !FILE_ROUTES.some((f) => f.name === r.name)), ...FILE_ROUTES];

const buckets = (t: ReturnType<typeof synthStage>) => t.data.findResources('AWS::S3::Bucket') as Record<string, Resource>;
const filesBucket = (t: ReturnType<typeof synthStage>) =>
  Object.entries(buckets(t)).find(([, b]) => JSON.stringify(b.Properties.BucketName ?? '').includes('-files-'))!;

/** Every statement of every policy in the flattened API template that names S3. */
function s3Statements(t: ReturnType<typeof synthStage>): { roles: string[]; actions: string[]; resource: string }[] {
  const out: { roles: string[]; actions: string[]; resource: string }[] = [];
  for (const policy of Object.values(t.api.findResources('AWS::IAM::Policy')) as Resource[]) {
    for (const st of policy.Properties.PolicyDocument.Statement) {
      const actions = ([] as string[]).concat(st.Action);
      if (!actions.some((a) => a.startsWith('s3:'))) continue;
      out.push({ roles: JSON.stringify(policy.Properties.Roles) as unknown as string[], actions, resource: JSON.stringify(st.Resource) });
    }
  }
  return out;
}

/** The route functions carrying FILES_BUCKET, by their logical id. */
function functionsWithBucket(t: ReturnType<typeof synthStage>): Record<string, Resource> {
  return t.api.findResources('AWS::Lambda::Function', {
    Properties: { Environment: { Variables: Match.objectLike({ [FILES_BUCKET_VARIABLE]: Match.anyValue() }) } },
  }) as Record<string, Resource>;
}

describe.each(['dev', 'prod'])('evidence files bucket (%s)', (stage) => {
  const t = synthStage(stage);

  it('is private, SSE-S3, unversioned, with server access logs', () => {
    const [, bucket] = filesBucket(t);
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      LoggingConfiguration: { LogFilePrefix: 'files/' },
    });
    expect(bucket.Properties.VersioningConfiguration).toBeUndefined();
    expect(bucket.Properties.AccessControl).toBeUndefined();
    // every bucket of the stack is private
    for (const b of Object.values(buckets(t))) expect(b.Properties.PublicAccessBlockConfiguration).toBeDefined();
  });

  it('expires files after 400 days and aborts incomplete multipart uploads after 1 day', () => {
    expect(FILES_BUCKET_LIFECYCLE.expirationDays).toBe(FILE_RETENTION_DAYS);
    const [, bucket] = filesBucket(t);
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([
      expect.objectContaining({ Status: 'Enabled', ExpirationInDays: 400, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
    ]);
  });

  it('denies requests without TLS, and allows no principal but S3 log delivery', () => {
    const policies = Object.values(t.data.findResources('AWS::S3::BucketPolicy')) as Resource[];
    for (const policy of policies) {
      const statements = policy.Properties.PolicyDocument.Statement as Record<string, any>[];
      expect(statements).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } }, Principal: { AWS: '*' } }),
      );
      for (const st of statements.filter((s) => s.Effect === 'Allow')) {
        expect(st.Principal).toEqual({ Service: 'logging.s3.amazonaws.com' });
        expect(st.Action).toBe('s3:PutObject');
      }
    }
  });

  it(`is ${stage === 'prod' ? 'retained' : 'destroyed'} with the stack, like the table`, () => {
    const [, bucket] = filesBucket(t);
    expect(bucket.DeletionPolicy).toBe(stage === 'prod' ? 'Retain' : 'Delete');
  });

  it.each([
    ['the route table as it is', ROUTES],
    ['with the file and dispute evidence routes', withFileRoutes],
  ])('grants S3 only to the functions that carry FILES_BUCKET, each its own action (%s)', (_label, routes) => {
    const s = routes === ROUTES ? t : synthStage(stage, { routes });
    const carriers = functionsWithBucket(s);
    const expected = routes.filter((r) => filesBucketAccess(r.name).length > 0).map((r) => r.name);
    expect(
      Object.keys(carriers)
        .map((id) => expected.find((name) => id.startsWith(name)))
        .sort(),
    ).toEqual([...expected].sort());
    const statements = s3Statements(s);
    expect(statements).toHaveLength(expected.length);
    for (const st of statements) {
      expect(st.resource).toContain('-files-');
      expect(st.resource).toMatch(/\/\*"\]?$|\/\*"/);
      expect(st.actions.length).toBe(1);
      expect(['s3:PutObject', 's3:GetObject']).toContain(st.actions[0]);
    }
    if (routes === withFileRoutes) {
      expect(filesBucketAccess('CreateFile')).toEqual(['s3:PutObject']);
      expect(filesBucketAccess('GetFile')).toEqual([]);
      expect(filesBucketAccess('SubmitDisputeEvidence')).toEqual(['s3:GetObject']);
      expect(Object.keys(carriers).some((id) => id.startsWith('GetFile'))).toBe(false);
    }
  });
});

test.each(['dev', 'prod'])('cdk-nag AwsSolutions: zero unacknowledged findings with the file and dispute evidence routes (%s)', (stage) => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...alarmContext(stage) } });
  buildApp(app, stage, { routes: withFileRoutes, webhookDeliveryEntry: false });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  expect(() => app.synth()).not.toThrow();
});
