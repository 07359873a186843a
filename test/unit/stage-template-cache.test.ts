/**
 * The run-scoped cache the infra suites share each stage's templates through (test/infra/stage-template-cache.ts):
 * one production per name and inputs, JSON for every later caller, a claimed entry waited for, a failed one produced
 * again by each caller (so each suite reports the error), nothing cached without the run's directory.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachedForRun, STAGE_TEMPLATE_CACHE_DIR_ENV } from '../infra/stage-template-cache';

let dir: string;
const saved = process.env[STAGE_TEMPLATE_CACHE_DIR_ENV];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'switchyard-cache-test-'));
  process.env[STAGE_TEMPLATE_CACHE_DIR_ENV] = dir;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));
afterAll(() => {
  if (saved === undefined) delete process.env[STAGE_TEMPLATE_CACHE_DIR_ENV];
  else process.env[STAGE_TEMPLATE_CACHE_DIR_ENV] = saved;
});

test('produces once per name and inputs; later callers get a JSON copy', () => {
  const produce = jest.fn(() => ({ Resources: { A: { Type: 'AWS::S3::Bucket' } } }));
  const first = cachedForRun('stage-dev', ['x'], produce);
  const second = cachedForRun('stage-dev', ['x'], produce);
  expect(produce).toHaveBeenCalledTimes(1);
  expect(second).toEqual(first);
  expect(second).not.toBe(first);
  cachedForRun('stage-dev', ['y'], produce);
  cachedForRun('stage-prod', ['x'], produce);
  expect(produce).toHaveBeenCalledTimes(3);
});

test('without the run directory nothing is cached', () => {
  delete process.env[STAGE_TEMPLATE_CACHE_DIR_ENV];
  const produce = jest.fn(() => 1);
  cachedForRun('stage-dev', [], produce);
  cachedForRun('stage-dev', [], produce);
  expect(produce).toHaveBeenCalledTimes(2);
});

test('a failed production is not cached: the error reaches every caller', () => {
  const failing = jest.fn((): number => {
    throw new Error('synthesis failed');
  });
  expect(() => cachedForRun('stage-dev', [], failing)).toThrow('synthesis failed');
  expect(() => cachedForRun('stage-dev', [], failing)).toThrow('synthesis failed');
  expect(failing).toHaveBeenCalledTimes(2);
});

test('an entry another worker claimed is waited for and read, not produced again', () => {
  // Learn the entry's file name, then empty the directory and leave only another worker's claim on it.
  cachedForRun('stage-dev', ['w'], () => 0);
  const file = readdirSync(dir).find((f) => f.endsWith('.json'))!;
  for (const f of readdirSync(dir)) rmSync(join(dir, f));
  writeFileSync(join(dir, `${file}.lock`), '');
  // The other worker writes its result a little later (this thread blocks while it waits).
  const writer = spawn(
    'sh',
    [
      '-c',
      `sleep 0.3; echo '{"from":"other worker"}' > "${join(dir, `${file}.tmp`)}"; mv "${join(dir, `${file}.tmp`)}" "${join(dir, file)}"`,
    ],
    {
      stdio: 'ignore',
    },
  );
  const produce = jest.fn(() => ({ from: 'this worker' }));
  expect(cachedForRun('stage-dev', ['w'], produce)).toEqual({ from: 'other worker' });
  expect(produce).not.toHaveBeenCalled();
  writer.kill();
});
