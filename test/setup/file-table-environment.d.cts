/** Types of test/setup/file-table-environment.cjs, for the TypeScript global setup that publishes the table definition. */

/** Environment variable holding `{ create, ttlAttribute }`: the CreateTable input (any name) and the TTL attribute. */
export declare const TABLE_DEFINITION_ENV: string;
