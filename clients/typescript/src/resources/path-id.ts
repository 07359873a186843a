/**
 * Checks a path id before it is put in a URL: non-empty, and not `.`/`..` (which a URL would resolve away).
 * @param name the argument's name, for the message (`paymentId`)
 * @param value the id given
 * @returns `value`
 * @throws TypeError when `value` is not such an id
 */
export function pathId(name: string, value: string): string {
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
    throw new TypeError(`Switchyard: ${name} must be an id as the API returned it.`);
  }
  return value;
}
