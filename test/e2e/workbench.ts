import * as assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { openBrowser } from '../support/browser';
import { packageExtension, REPO, startCodeServer, stopCodeServer } from './codeServer';

/**
 * Asserts what `read` gives once the page has settled: it is read until it gives `expected` (equal, or matching a
 * pattern), or until `timeout`, and the last reading is asserted. The workbench and its webviews render after each
 * event, a hover in steps: a reading taken mid-render fails a test that would pass a moment later, and a reading
 * that never becomes right still fails.
 */
export async function expectSettled<T>(read: () => Promise<T>, expected: T | RegExp, timeout = 30000): Promise<void> {
  const holds = (value: T) =>
    expected instanceof RegExp ? expected.test(String(value)) : isDeepStrictEqual(value, expected);
  const deadline = Date.now() + timeout;
  let value = await read();
  while (!holds(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  if (expected instanceof RegExp) assert.match(String(value), expected);
  else assert.deepEqual(value, expected);
}

/**
 * Opens a workspace file through Quick Open, goes to its top (an editor reopens where it was scrolled) and waits for
 * one of its first lines.
 */
export async function openFile(page: Page, relative: string, firstLine: string): Promise<void> {
  const first = page.locator('.monaco-editor .view-line', { hasText: firstLine }).first();
  // Quick Open's rows are re-sorted when the file search's results arrive (late on a loaded machine): a click can
  // land on another file's row. Then the first line never shows, and Quick Open is asked again.
  for (let round = 0; round < 3; round++) {
    // Keys typed while a webview has focus go to its frame: give the workbench focus first.
    await page.locator('.part.sidebar .composite.title').first().click();
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill(relative);
    // Recently opened files are listed first, and the search's own rows come later on a loaded machine: pick the row
    // of this file in this skill's folder.
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: path.basename(path.dirname(relative)) })
      .filter({ hasText: path.basename(relative) })
      .first()
      .click();
    // The editor may take the keys only once it has opened: go to the top until the first line shows.
    for (let attempt = 0; attempt < 4; attempt++) {
      await page.keyboard.press('Control+Home');
      if (
        await first.waitFor({ timeout: 5000 }).then(
          () => true,
          () => false,
        )
      )
        return;
    }
  }
  await first.waitFor();
}

/**
 * Shows the Problems panel. Its key toggles it, and a key pressed while
 * Quick Open is still closing can be lost on a loaded machine: press it
 * until the panel shows, never when it already does.
 */
export async function showProblems(page: Page): Promise<void> {
  const panel = page.locator('.markers-panel');
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await panel.isVisible()) return;
    await page.keyboard.press('Control+Shift+M');
    if (
      await panel.waitFor({ state: 'visible', timeout: 5000 }).then(
        () => true,
        () => false,
      )
    )
      return;
  }
  await panel.waitFor({ state: 'visible' });
}

/** Runs a command from the command palette by its title. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
  await page.keyboard.press('Enter');
}

/** Moves the cursor with Go to Line (1-based line and column, as the status bar shows them). */
export async function goTo(page: Page, line: number, column: number): Promise<void> {
  // Quick Open with a leading ':' is Go to Line; the browser keeps Ctrl+G for itself.
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await page.locator('.statusbar-item', { hasText: `Ln ${line}, Col ${column}` }).waitFor();
}

/**
 * Runs `wait`; if it fails, keeps a screenshot of the window as it was then
 * (at `file`) and fails with the same error. For waits that have timed out
 * now and then under the full CI load, so the next look sees what the
 * window showed.
 */
export async function screenshotOnFailure<T>(page: Page, file: string, wait: () => Promise<T>): Promise<T> {
  try {
    return await wait();
  } catch (error) {
    await page.screenshot({ path: file }).catch(() => undefined);
    throw error;
  }
}

/** The graph preview's document, inside VS Code's two webview frames. */
export function previewFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
}

/** Runs *Skillgraph: Compile Skill…* on the open skill and picks `target`; returns the rows offered (their labels). */
export async function compileTo(page: Page, target: string, artifacts: string): Promise<string[]> {
  await page.locator('.monaco-editor .view-lines').first().click();
  await runCommand(page, 'Skillgraph: Compile Skill…');
  // The palette's own row goes first: wait for the targets' list.
  const choice = page.locator('.quick-input-list .monaco-list-row', { hasText: target }).first();
  await choice.waitFor({ timeout: 30000 });
  const offered = await page
    .locator('.quick-input-list .monaco-list-row')
    .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label') ?? ''));
  await page.screenshot({ path: path.join(artifacts, 'targets.png') });
  await choice.click();
  return offered;
}

/**
 * In the Refactor Preview a compile opens: runs `before` while nothing is
 * applied, ticks every file (entries that need confirmation start
 * unticked), takes a screenshot and applies. Returns the rows' texts.
 */
export async function tickAndApply(page: Page, before: () => void, screenshot: string): Promise<string[]> {
  const apply = page.getByRole('button', { name: 'Apply', exact: true });
  await apply.waitFor({ timeout: 60000 });
  before();
  const rows = page.locator('.monaco-list-row', { hasText: '(creating)' });
  const texts = await rows.allTextContents();
  for (let index = 0; index < texts.length; index++) await rows.nth(index).getByRole('checkbox').click();
  await page.screenshot({ path: screenshot });
  await apply.click();
  return texts;
}

export interface ExamplesWorkbench {
  page: Page;
  context: BrowserContext;
  workspace: string;
  close(): Promise<void>;
}

/**
 * A real VS Code (code-server) on a fresh copy of `examples/` with the
 * packaged extension installed (and any other `vsix`), in Chromium; ready once the explorer lists
 * `folder`. Its log goes to `artifacts` when it is closed.
 */
export async function openExamplesWorkbench(options: {
  artifacts: string;
  port: number;
  folder: string;
  vsix?: string[];
  env?: Record<string, string>;
  settings?: object;
  /** Files written into the workspace beside the examples before VS Code starts: relative path → text. */
  files?: Record<string, string>;
  /** Anything else the workspace needs before VS Code starts (a git repository), given its folder. */
  prepare?: (workspace: string) => void;
}): Promise<ExamplesWorkbench> {
  mkdirSync(options.artifacts, { recursive: true });
  const workspace = mkdtempSync(path.join(tmpdir(), 'sg-ws-'));
  cpSync(path.join(REPO, 'examples'), workspace, { recursive: true });
  for (const [relative, text] of Object.entries(options.files ?? {})) {
    mkdirSync(path.dirname(path.join(workspace, relative)), { recursive: true });
    writeFileSync(path.join(workspace, relative), text);
  }
  options.prepare?.(workspace);
  const server = await startCodeServer({
    vsix: [packageExtension(), ...(options.vsix ?? [])],
    workspace,
    port: options.port,
    ...(options.env ? { env: options.env } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
  });
  const { context, page } = await openBrowser(server.url);
  await page
    .locator('.explorer-folders-view .monaco-list-row', { hasText: options.folder })
    .waitFor({ timeout: 120000 });
  return {
    page,
    context,
    workspace,
    async close() {
      await context.close();
      stopCodeServer(server, options.artifacts);
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}
