/**
 * The tests run on the Node.js major that Lambda runs (`nodejs22.x`): `.nvmrc`, `engines`, the `node`
 * dev dependency that puts its binary first on the PATH of npm scripts, and the running process agree.
 * `npx jest` or `npm test` on a machine whose own Node is 20 still runs here on 22.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const major = (version: string) => Number(/(\d+)/.exec(version)?.[1]);

describe('Node.js runtime', () => {
  const nvmrc = readFileSync(join(root, '.nvmrc'), 'utf8').trim();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    engines: { node: string };
    devDependencies: Record<string, string>;
  };
  const lambdaRuntime = /Runtime\.NODEJS_(\d+)_X/.exec(readFileSync(join(root, 'lib', 'functions', 'function-factory.ts'), 'utf8'))?.[1];

  it('.nvmrc, engines, the node dev dependency and the Lambda runtime name one major', () => {
    const wanted = major(nvmrc);
    expect(wanted).toBeGreaterThanOrEqual(22);
    expect(major(pkg.engines.node)).toBe(wanted);
    expect(major(pkg.devDependencies.node ?? '')).toBe(wanted);
    expect(Number(lambdaRuntime)).toBe(wanted);
  });

  it('this test process runs on that major', () => {
    expect(major(process.version)).toBe(major(nvmrc));
  });
});
