import * as path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';

/** Opens a workspace file through Quick Open, goes to its top (an editor reopens where it was scrolled) and waits for one of its first lines. */
export async function openFile(page: Page, relative: string, firstLine: string): Promise<void> {
  // Keys typed while a webview has focus go to its frame: give the workbench focus first.
  await page.locator('.part.sidebar .composite.title').first().click();
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').fill(relative);
  // Recently opened files are listed first: pick the row of this skill's folder.
  await page.locator('.quick-input-list .monaco-list-row', { hasText: path.basename(path.dirname(relative)) }).first().click();
  await page.keyboard.press('Control+Home');
  await page.locator('.monaco-editor .view-line', { hasText: firstLine }).first().waitFor();
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

/** The graph preview's document, inside VS Code's two webview frames. */
export function previewFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
}
