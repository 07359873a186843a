import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Where a running `npm start` says how to reach its DynamoDB (read by `npm run keys`). */
export const LOCAL_STACK_FILE = '.data/local-stack.json';

/** What a running local stack publishes about itself. */
export interface LocalStackInfo {
  dynamodbEndpoint: string;
  tableName: string;
  baseUrl: string;
  /** Process id of the `npm start` process, to tell a stale file from a live stack. */
  pid: number;
}

const path = () => resolve(process.cwd(), LOCAL_STACK_FILE);

/** Writes the file (called by `npm start` once it serves). */
export function writeLocalStackInfo(info: LocalStackInfo): void {
  mkdirSync(dirname(path()), { recursive: true });
  writeFileSync(path(), `${JSON.stringify(info, null, 2)}\n`);
}

/** Removes the file (called by `npm start` when it stops). */
export function removeLocalStackInfo(): void {
  rmSync(path(), { force: true });
}

/**
 * The running local stack, or undefined when none runs (no file, or its
 * process is gone).
 */
export function readLocalStackInfo(): LocalStackInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(path(), 'utf8')) as LocalStackInfo;
    process.kill(info.pid, 0); // throws when the process no longer exists
    return info;
  } catch {
    return undefined;
  }
}
