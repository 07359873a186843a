import { readFileSync } from 'node:fs';
import { ARCHITECTURE_DOC, withFreshDiagrams } from '../../scripts/architecture-diagram';

describe('docs/architecture.md', () => {
  test('its dependency diagrams are the ones dependency-cruiser draws from the code now (npm run docs:architecture)', () => {
    const committed = readFileSync(ARCHITECTURE_DOC, 'utf8');
    expect(withFreshDiagrams(process.cwd(), committed)).toBe(committed);
  }, 60_000);
});
