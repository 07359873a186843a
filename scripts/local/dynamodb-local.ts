/**
 * DynamoDB Local for development and tests, without Docker and without downloads
 * from AWS.
 *
 * AWS's DynamoDB Local (a Java program: `DynamoDBLocal.jar` + `DynamoDBLocal_lib/`
 * with the sqlite4java native libraries) ships inside the `amplify-dynamodb-simulator`
 * npm package under `emulator/`. This module fetches that one tarball with
 * `npm pack` (never installing it or any of its dependencies), checks it against a
 * pinned SRI hash, extracts only `emulator/` into `<cwd>/.cache/dynamodb-local/<version>/`,
 * and can start/stop the emulator as a child `java` process.
 *
 * The repository root is taken to be `process.cwd()`. This file deliberately avoids
 * `import.meta` and `__dirname`, because it is loaded both as ESM (tsx) and as
 * CommonJS (jest via @swc/jest).
 *
 * Requires a Java runtime (DynamoDB Local 1.x needs Java 8+; tested with 17) on the PATH,
 * or `JAVA_HOME` set.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { extract } from 'tar';

/**
 * The npm package (and exact, integrity-pinned version) that carries the DynamoDB
 * Local distribution in its `emulator/` folder. Version 2.9.30 contains DynamoDB
 * Local 1.25.1.
 *
 * - `name`: npm package name.
 * - `version`: exact version passed to `npm pack`.
 * - `integrity`: SRI string (`sha512-<base64>`) the downloaded tarball must match.
 */
export const DYNAMODB_LOCAL_PACKAGE = {
  name: 'amplify-dynamodb-simulator',
  version: '2.9.30',
  integrity: 'sha512-xTeeRLvzEfqyd5lh3bH4c0kHvSHHmmhD5ZDsHFKAQ5g2Zl6JqlFdutaQhCLHzxEp6Ry1o7TB6niIoXuQAnSewQ==',
} as const;

/** Name of the file written (last, before the atomic rename) into a complete extraction. */
const MARKER_FILE = '.extracted.json';
const JAR_FILE = 'DynamoDBLocal.jar';
const LIB_DIR = 'DynamoDBLocal_lib';
/** Tar entries we keep, and how many leading path parts to strip from them. */
const EMULATOR_PREFIX = 'package/emulator/';
const EMULATOR_STRIP = 2;

const READY_TIMEOUT_MS = 30_000;
const READY_POLL_INTERVAL_MS = 100;
const STOP_GRACE_MS = 5_000;
const OUTPUT_TAIL_CHARS = 8_000;
/**
 * DynamoDB Local does NOT exit when startup fails (e.g. the port is taken): it prints
 * `Exception in thread "main" java.io.IOException: Failed to bind ...` and the JVM stays
 * alive. Seeing this in its output means startup failed.
 */
const FATAL_OUTPUT = /Exception in thread "main"|Failed to bind|Address already in use/;

/**
 * Makes sure the DynamoDB Local distribution is present in the local cache and
 * returns where it is.
 *
 * Cache location: `<process.cwd()>/.cache/dynamodb-local/<DYNAMODB_LOCAL_PACKAGE.version>/`.
 * If that directory already holds `DynamoDBLocal.jar` and the completion marker, it is
 * returned immediately (no network, no child process). Otherwise the package tarball is
 * fetched with `npm pack <name>@<version> --pack-destination <os tmpdir> --json`
 * (uses the npm registry/config visible from the current directory; nothing is
 * installed), its SHA-512 is checked against `DYNAMODB_LOCAL_PACKAGE.integrity`, only
 * the `package/emulator/` entries are extracted (prefix stripped) into a private
 * staging directory next to the cache directory, the marker is written, and the
 * staging directory is renamed into place. The tarball is always deleted.
 *
 * Safe to call concurrently from several processes: each one stages privately and the
 * final step is an atomic `rename`; a process that loses the race discards its copy
 * and uses the winner's.
 *
 * @returns Absolute path of a directory containing `DynamoDBLocal.jar` and `DynamoDBLocal_lib/`.
 * @throws Error if `npm pack` fails (e.g. registry unreachable), if the tarball's
 *   integrity does not match the pinned value, if the tarball does not contain the
 *   expected files, or on file-system errors.
 */
export async function ensureDynamoDbLocal(): Promise<string> {
  const cacheRoot = path.resolve(process.cwd(), '.cache', 'dynamodb-local');
  const finalDir = path.join(cacheRoot, DYNAMODB_LOCAL_PACKAGE.version);
  if (await isCompleteInstall(finalDir)) return finalDir;

  await fs.mkdir(cacheRoot, { recursive: true });
  // Staging lives inside cacheRoot so the final rename stays on one file system.
  const stagingDir = await fs.mkdtemp(path.join(cacheRoot, `.staging-${DYNAMODB_LOCAL_PACKAGE.version}-`));
  const packDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dynamodb-local-pack-'));
  try {
    const tarball = await npmPack(packDir);
    await verifyIntegrity(tarball, DYNAMODB_LOCAL_PACKAGE.integrity);

    await extract({
      file: tarball,
      cwd: stagingDir,
      strip: EMULATOR_STRIP,
      strict: true,
      filter: (entryPath) => entryPath.startsWith(EMULATOR_PREFIX),
    });
    await fs.rm(tarball, { force: true });

    if (!(await exists(path.join(stagingDir, JAR_FILE))) || !(await exists(path.join(stagingDir, LIB_DIR)))) {
      throw new Error(
        `${DYNAMODB_LOCAL_PACKAGE.name}@${DYNAMODB_LOCAL_PACKAGE.version} did not contain ` +
          `${EMULATOR_PREFIX}${JAR_FILE} and ${EMULATOR_PREFIX}${LIB_DIR}/`,
      );
    }
    await fs.writeFile(
      path.join(stagingDir, MARKER_FILE),
      `${JSON.stringify({ ...DYNAMODB_LOCAL_PACKAGE, extractedAt: new Date().toISOString() }, null, 2)}\n`,
    );

    await fs.chmod(stagingDir, 0o755); // mkdtemp creates 0700
    await publish(stagingDir, finalDir);
    return finalDir;
  } finally {
    await fs.rm(packDir, { recursive: true, force: true });
    // No-op when the rename succeeded; removes our copy when we lost a race or failed.
    await fs.rm(stagingDir, { recursive: true, force: true });
  }
}

/** A running DynamoDB Local instance started by {@link startDynamoDbLocal}. */
export interface DynamoDbLocalHandle {
  /** Base URL to pass as `endpoint` to AWS SDK clients, e.g. `http://127.0.0.1:54321`. */
  endpoint: string;
  /** TCP port the emulator listens on (bound on all interfaces by DynamoDB Local). */
  port: number;
  /** The `java` process's id (to read its CPU time: test/setup/global-teardown.ts). */
  pid: number | undefined;
  /**
   * Stops the emulator: SIGTERM, then SIGKILL if it has not exited after 5 s.
   * Resolves once the process has exited. Idempotent; resolves immediately if it
   * already exited.
   */
  stop(): Promise<void>;
}

/**
 * The JVM options DynamoDB Local runs with: the client compiler only (`-XX:TieredStopAtLevel=1`) and the serial
 * collector (`-XX:+UseSerialGC`). An emulator run here lives for minutes, serving small requests from tests and the
 * local stack; most of its CPU went to the JVM's optimizing compiler warming up and to the parallel collector's
 * threads, not to serving. Measured in CPU-seconds of the `java` process (other load on the machine moves wall time,
 * not these): the property-based HTTP tests (one file then) 20.6 → 9.9, `test/http/ledger-property.test.ts` 9.4 → 4.5, five
 * DynamoDB-heavy HTTP files in one jest run 49.9 → 38.9, with the same tests passing (README, "Tests"); over the whole suite the
 * optimizing compiler gives back little (273 → 262 CPU-seconds). `DYNAMODB_LOCAL_JVM_OPTIONS` (space-separated) replaces them,
 * to measure others. Both are standard HotSpot options (https://docs.oracle.com/en/java/javase/17/docs/specs/man/java.html).
 */
const DYNAMODB_LOCAL_JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'] as const;

/**
 * Starts DynamoDB Local as a child `java` process and waits until it serves requests.
 *
 * Runs `java <DYNAMODB_LOCAL_JVM_OPTIONS> -Djava.library.path=<dir>/DynamoDBLocal_lib -jar <dir>/DynamoDBLocal.jar
 * -port <port> -sharedDb -disableTelemetry` plus either `-inMemory` or `-dbPath <dbPath>`,
 * with `<dir>` from {@link ensureDynamoDbLocal} (which may download on first use) and the
 * process's working directory set to `<dir>` (DynamoDB Local drops a
 * `dynamodb-local-metadata.json` file into its working directory). `java` is taken from
 * `$JAVA_HOME/bin` when `JAVA_HOME` is set, else from the PATH. `-sharedDb` means every
 * credential/region sees the same tables.
 *
 * Readiness: polls `ListTables` (dummy credentials, region us-east-1) until it succeeds,
 * for at most 30 s.
 *
 * The child is killed (SIGTERM) from a `process.on('exit')` handler, so it does not
 * outlive a parent that exits normally or via `process.exit()`. The child keeps the
 * parent's event loop alive until {@link DynamoDbLocalHandle.stop} is called.
 *
 * @param options.inMemory - Keep all data in memory (lost on stop). Default `false`.
 * @param options.dbPath - Directory for the persistent SQLite file
 *   (`shared-local-instance.db`); created if missing; relative paths resolve against
 *   `process.cwd()`. Default `<cwd>/.data/dynamodb`. Used only when `inMemory` is
 *   false; must not be combined with `inMemory: true`.
 * @param options.port - Port to listen on. Default: a free port chosen by the OS.
 * @returns A handle with the endpoint URL, the port and `stop()`.
 * @throws Error if both `inMemory` and `dbPath` are given, if `port` is invalid or
 *   already in use, if the distribution cannot be fetched (see {@link ensureDynamoDbLocal}),
 *   if `java` cannot be started, if the process exits or prints a fatal startup error
 *   before it is ready, or if it is not ready within 30 s. The message includes the tail
 *   of the emulator's output; in every failure case the process has been stopped.
 */
export async function startDynamoDbLocal(
  options: { inMemory?: boolean; dbPath?: string; port?: number } = {},
): Promise<DynamoDbLocalHandle> {
  const { inMemory = false, dbPath, port: requestedPort } = options;
  if (inMemory && dbPath !== undefined) {
    throw new Error('startDynamoDbLocal: "inMemory" and "dbPath" are mutually exclusive');
  }
  if (requestedPort !== undefined && !(Number.isInteger(requestedPort) && requestedPort > 0 && requestedPort < 65536)) {
    throw new Error(`startDynamoDbLocal: invalid port ${String(requestedPort)}`);
  }

  const dir = await ensureDynamoDbLocal();
  if (requestedPort !== undefined && !(await isPortFree(requestedPort))) {
    // Checked up front because another server answering on that port would otherwise
    // look like a successful start.
    throw new Error(`startDynamoDbLocal: port ${requestedPort} is already in use`);
  }
  const port = requestedPort ?? (await findFreePort());
  const endpoint = `http://127.0.0.1:${port}`;

  const args = [
    ...(process.env.DYNAMODB_LOCAL_JVM_OPTIONS?.split(' ').filter(Boolean) ?? DYNAMODB_LOCAL_JVM_OPTIONS),
    `-Djava.library.path=${path.join(dir, LIB_DIR)}`,
    '-jar',
    path.join(dir, JAR_FILE),
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
  ];
  if (inMemory) {
    args.push('-inMemory');
  } else {
    const dataDir = path.resolve(process.cwd(), dbPath ?? path.join('.data', 'dynamodb'));
    await fs.mkdir(dataDir, { recursive: true });
    args.push('-dbPath', dataDir);
  }

  const javaHome = process.env.JAVA_HOME;
  const java = javaHome ? path.join(javaHome, 'bin', process.platform === 'win32' ? 'java.exe' : 'java') : 'java';
  const child = spawn(java, args, {
    cwd: dir,
    env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });

  // Keep draining the pipes for the whole lifetime (a full pipe would block the JVM),
  // remembering only the tail for error messages.
  const state: ChildState = { output: '', failed: false, spawnError: undefined, exited: false };
  const onData = (chunk: Buffer): void => {
    state.output = (state.output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
    if (FATAL_OUTPUT.test(state.output)) state.failed = true;
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);

  const killOnParentExit = (): void => {
    if (isRunning(child)) child.kill('SIGTERM');
  };
  process.on('exit', killOnParentExit);

  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    // 'exit' may not fire when spawning fails; 'close' always follows 'error'.
    child.once('close', () => resolve());
  }).finally(() => {
    state.exited = true;
    process.removeListener('exit', killOnParentExit);
  });
  child.once('error', (err) => {
    state.spawnError = err;
  });

  const stop = async (): Promise<void> => {
    if (isRunning(child)) {
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        exited.then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), STOP_GRACE_MS);
        }),
      ]);
      clearTimeout(timer);
      if (timedOut && isRunning(child)) child.kill('SIGKILL');
    }
    await exited;
  };

  try {
    await waitUntilReady(endpoint, child, exited, state);
  } catch (err) {
    await stop();
    throw err;
  }
  return { endpoint, port, pid: child.pid, stop };
}

// ---------------------------------------------------------------------------
// helpers

async function exists(p: string): Promise<boolean> {
  try {
    await fs.access(p);
    return true;
  } catch {
    return false;
  }
}

async function isCompleteInstall(dir: string): Promise<boolean> {
  return (await exists(path.join(dir, MARKER_FILE))) && (await exists(path.join(dir, JAR_FILE)));
}

/** Runs `npm pack` for the pinned package into `destDir`; returns the tarball's path. */
async function npmPack(destDir: string): Promise<string> {
  const spec = `${DYNAMODB_LOCAL_PACKAGE.name}@${DYNAMODB_LOCAL_PACKAGE.version}`;
  const isWindows = process.platform === 'win32';
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      isWindows ? 'npm.cmd' : 'npm',
      ['pack', spec, '--pack-destination', destDir, '--json', '--ignore-scripts'],
      // npm.cmd can only be run through a shell on Windows (Node >= 18.20.2 / 20.12.2).
      { cwd: process.cwd(), maxBuffer: 64 * 1024 * 1024, shell: isWindows, windowsHide: true },
      (err, out, errOut) => {
        if (err) {
          reject(new Error(`"npm pack ${spec}" failed: ${err.message}\n${String(errOut).slice(-OUTPUT_TAIL_CHARS)}`));
        } else {
          resolve(String(out));
        }
      },
    );
  });

  let filename: string | undefined;
  try {
    const parsed: unknown = JSON.parse(stdout);
    const first: unknown = Array.isArray(parsed) ? parsed[0] : undefined;
    if (first && typeof first === 'object' && typeof (first as { filename?: unknown }).filename === 'string') {
      filename = path.basename((first as { filename: string }).filename);
    }
  } catch {
    // Fall back to looking at the destination directory below.
  }
  if (!filename || !(await exists(path.join(destDir, filename)))) {
    const tgz = (await fs.readdir(destDir)).filter((f) => f.endsWith('.tgz'));
    if (tgz.length !== 1) {
      throw new Error(`"npm pack ${spec}" did not produce a tarball in ${destDir}; stdout:\n${stdout.slice(-2000)}`);
    }
    filename = tgz[0];
  }
  return path.join(destDir, filename as string);
}

/** Throws unless the SHA-512 SRI of `file` equals `expected` (`sha512-<base64>`). */
async function verifyIntegrity(file: string, expected: string): Promise<void> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  const actual = `sha512-${hash.digest('base64')}`;
  if (actual !== expected) {
    throw new Error(
      `Integrity check failed for ${DYNAMODB_LOCAL_PACKAGE.name}@${DYNAMODB_LOCAL_PACKAGE.version} ` +
        `(${path.basename(file)}): expected ${expected}, got ${actual}. ` +
        'Refusing to use it; check your npm registry/proxy configuration.',
    );
  }
}

/** Atomically moves a complete staging dir to `finalDir`, tolerating concurrent winners. */
async function publish(stagingDir: string, finalDir: string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await fs.rename(stagingDir, finalDir);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EPERM' && code !== 'EACCES' && code !== 'EBUSY') {
        throw err;
      }
      // Someone else got there first: use theirs if it is complete.
      if (await isCompleteInstall(finalDir)) return;
      // A leftover, incomplete directory (not produced by this code, which only ever
      // renames complete ones into place). Move it aside atomically, then retry.
      const trash = `${finalDir}.stale-${randomUUID()}`;
      try {
        await fs.rename(finalDir, trash);
        await fs.rm(trash, { recursive: true, force: true });
      } catch {
        // Another process may have moved it already; just retry.
      }
      await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
    }
  }
  if (await isCompleteInstall(finalDir)) return;
  throw new Error(`Could not move DynamoDB Local into ${finalDir}`);
}

/** Asks the OS for a currently free TCP port on 127.0.0.1. */
function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : undefined;
      server.close(() => (port ? resolve(port) : reject(new Error('Could not determine a free port'))));
    });
  });
}

/** True if a TCP server can currently listen on `port` on all interfaces (as DynamoDB Local does). */
function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null && child.pid !== undefined;
}

/** What startDynamoDbLocal observes about its child while it runs. */
interface ChildState {
  /** Tail of combined stdout/stderr. */
  output: string;
  /** Output matched {@link FATAL_OUTPUT}. */
  failed: boolean;
  /** Set when the process could not be spawned (e.g. `java` not found). */
  spawnError: Error | undefined;
  exited: boolean;
}

/**
 * Polls ListTables until it succeeds. Rejects if the child fails to spawn, exits, prints a
 * fatal startup error, or is not ready after 30 s. Each attempt is aborted after 2 s (the
 * SDK's own `requestTimeout` only warns by default).
 */
async function waitUntilReady(endpoint: string, child: ChildProcess, exited: Promise<void>, state: ChildState): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  try {
    for (;;) {
      if (state.exited || !isRunning(child)) {
        await exited; // 'error' (spawn failure) is emitted asynchronously, before 'close'.
        if (state.spawnError) {
          throw new Error(
            `Could not start Java for DynamoDB Local (${state.spawnError.message}). ` +
              'Install a Java runtime (8+) and put it on the PATH or set JAVA_HOME.',
          );
        }
        throw new Error(
          `DynamoDB Local exited before it was ready (code ${String(child.exitCode)}, ` +
            `signal ${String(child.signalCode)}). Output:\n${state.output}`,
        );
      }
      if (state.failed) {
        throw new Error(`DynamoDB Local failed to start on ${endpoint}. Output:\n${state.output}`);
      }
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(2_000) });
        if (!state.failed) return;
        continue; // reported above
      } catch (err) {
        lastError = err;
      }
      if (Date.now() >= deadline) {
        throw new Error(
          `DynamoDB Local did not become ready on ${endpoint} within ${READY_TIMEOUT_MS / 1000} s ` +
            `(last error: ${lastError instanceof Error ? lastError.message : String(lastError)}). ` +
            `Output:\n${state.output}`,
        );
      }
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, READY_POLL_INTERVAL_MS))]);
    }
  } finally {
    client.destroy();
  }
}
