import { readFileSync } from 'node:fs';
import { ARCHITECTURE_DOC, ARCHITECTURE_SVG, freshDiagrams } from '../../scripts/architecture-diagram';

describe('docs/architecture.md and docs/architecture.svg', () => {
  test('their dependency diagrams are the ones dependency-cruiser draws from the code now (npm run docs:architecture)', async () => {
    const committed = readFileSync(ARCHITECTURE_DOC, 'utf8');
    const fresh = await freshDiagrams(process.cwd(), committed);
    expect(fresh.document).toBe(committed);
    expect(fresh.svg).toBe(readFileSync(ARCHITECTURE_SVG, 'utf8'));
  }, 240_000);
});
