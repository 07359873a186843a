/** The checkout page's text on a brand colour: white or black, whichever contrasts more, reaches WCAG's 4.5:1 for every colour. */
import fc from 'fast-check';
import { contrastRatio, textColorOn } from '../../shared/domain/merchant-profile';

const hex = fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, '0')}`);

test('the chosen text colour contrasts at least 4.5:1 with any background, and never less than the other choice', () => {
  fc.assert(
    fc.property(hex, (bg) => {
      const ink = textColorOn(bg);
      const other = ink === '#ffffff' ? '#000000' : '#ffffff';
      expect(contrastRatio(bg, ink)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(bg, ink)).toBeGreaterThanOrEqual(contrastRatio(bg, other));
    }),
    { numRuns: 2000 },
  );
  // WCAG's own end points.
  expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
  expect(textColorOn('#ffde00')).toBe('#000000');
  expect(textColorOn('#0a3069')).toBe('#ffffff');
});
