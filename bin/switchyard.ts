/**
 * The CDK app. `npx cdk synth|deploy -c stage=<dev|prod>` (default dev).
 * The stage's config is read once here and passed to both stacks.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp, tagApp } from '../lib/switchyard-app';

const app = new App();
buildApp(app, String(app.node.tryGetContext('stage') ?? 'dev'));
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
tagApp(app);
app.synth();
