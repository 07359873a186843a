/**
 * Amounts between Switchyard and Flutterwave: the only place that converts to and from Flutterwave's wire unit.
 * Our amounts are integers in minor units; Flutterwave's wire amounts are in MAJOR units. All five currencies we
 * accept have two decimals, so the conversion is integer division/remainder by 100 ({@link minorToMajor},
 * {@link majorToMinor}); no float arithmetic.
 */
import { ConnectorTechnicalError } from '../connector';
import { FLUTTERWAVE_CONNECTOR_NAME } from './connector-name';

/**
 * Minor units → Flutterwave's major-unit decimal string, by integer division and
 * remainder by 100 (all our currencies have 2 decimals): `150000` → `"1500.00"`.
 * @throws RangeError when `amount` is not a non-negative safe integer
 */
export function minorToMajor(amount: number): string {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError('An amount must be a non-negative integer number of minor units.');
  const cents = amount % 100;
  const whole = (amount - cents) / 100;
  return `${whole}.${String(cents).padStart(2, '0')}`;
}

/**
 * Flutterwave's major-unit amount (a JSON number such as `1500`, `12.5`, or a
 * string such as `"1500.00"`) → minor units, parsing the decimal text with
 * integer arithmetic only (digits beyond the second decimal round half up).
 * @throws ConnectorTechnicalError when the value is not a plain non-negative decimal
 */
export function majorToMinor(value: number | string): number {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match)
    throw new ConnectorTechnicalError(
      FLUTTERWAVE_CONNECTOR_NAME,
      `Flutterwave answered an amount that is not a decimal number: ${text.slice(0, 32)}`,
    );
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  const cents = Number(`${fraction}00`.slice(0, 2));
  const roundUp = fraction.length > 2 && fraction.charCodeAt(2) >= 53; // third decimal ≥ '5'
  const minor = Number(whole) * 100 + cents + (roundUp ? 1 : 0);
  if (!Number.isSafeInteger(minor))
    throw new ConnectorTechnicalError(FLUTTERWAVE_CONNECTOR_NAME, 'Flutterwave answered an amount too large to represent.');
  return minor;
}
