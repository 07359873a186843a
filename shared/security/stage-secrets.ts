/**
 * Secrets Manager reads for a deployed stage (the keyed-hash key, the platform connector settings),
 * through Powertools Parameters' `getSecret`, which caches each value for `maxAge` seconds in the
 * function instance.
 *
 * Powertools Parameters and the Secrets Manager client (~15 KB minified beside the DynamoDB client's
 * shared AWS SDK core) are loaded on the first read, not at import: a local stack and the tests never
 * read a secret, and most handlers read one only on some paths (an `Idempotency-Key`, a card, a
 * platform connector), so their cold start does not pay for the client.
 */

/** Options of one read: `maxAge` in seconds (Powertools' cache of the value); `transform: 'json'` parses the value. */
export interface StageSecretOptions {
  maxAge: number;
  transform?: 'json';
}

/**
 * The secret's value (a string, or the parsed JSON with `transform: 'json'`), or undefined when
 * Secrets Manager returns none.
 * @param secretId the secret's name or ARN
 * @throws the Secrets Manager error (AccessDenied, ResourceNotFound, throttling) or the JSON parse error,
 *   as Powertools Parameters raises them (GetSecretValue:
 *   https://docs.aws.amazon.com/secretsmanager/latest/apireference/API_GetSecretValue.html)
 */
export async function readStageSecret(secretId: string, options: StageSecretOptions): Promise<unknown> {
  const { getSecret } = await import('@aws-lambda-powertools/parameters/secrets');
  return options.transform === 'json'
    ? getSecret(secretId, { maxAge: options.maxAge, transform: 'json' })
    : getSecret(secretId, { maxAge: options.maxAge });
}
