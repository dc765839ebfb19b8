// Shared helpers of the browser tests: start `tengen serve --port 0`, launch
// Debian's chromium through playwright-core, print TAP lines.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

let failures = 0;
export function ok(cond, name, detail) {
  if (cond) {
    console.log(`ok - ${name}`);
  } else {
    failures++;
    console.log(`not ok - ${name}${detail ? ` (${detail})` : ''}`);
  }
  return cond;
}
export function failed() { return failures; }

// Starts the server; resolves to { url, proc } once it prints its URL.
export function startServer() {
  const bin = process.env.TENGEN;
  if (!bin) throw new Error('TENGEN is not set (path of the tengen binary)');
  const proc = spawn(bin, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('tengen serve printed no URL: ' + out)), 10000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /serving (http:\/\/\S+?)\/?\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], proc });
      }
    });
    proc.stderr.on('data', (d) => { out += d; });
    proc.on('exit', (code) => reject(new Error(`tengen serve exited with ${code}: ${out}`)));
  });
}

// Stops the server with SIGTERM; resolves to its exit code.
export function stopServer(proc) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => { proc.kill('SIGKILL'); resolve(-1); }, 10000);
    proc.on('exit', (code) => { clearTimeout(timer); resolve(code); });
    proc.kill('SIGTERM');
  });
}

// Launches headless chromium; resolves to { context, close }.
export async function launch() {
  const profile = mkdtempSync(join(tmpdir(), 'tengen-chromium-'));
  // A fresh profile each run (playwright passes it as --user-data-dir).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1100, height: 760 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
