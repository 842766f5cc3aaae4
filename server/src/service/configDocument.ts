import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-types';
import { CONFIG_FILE_NAMES, readConfig } from '../config/configFile';
import { lspDiagnosticAt } from '../features/lspDiagnostics';
import { LineIndex } from '../parse/text/lineIndex';
import { flatText, type TextLike } from '../parse/text/textLike';
import type { FileSystem } from '../workspace/fileSystem';
import { OverlayFileSystem } from '../workspace/overlayFileSystem';

/** Whether a document is a Skillgraph configuration file. */
export function isConfigDocument(uri: string): boolean {
  return (
    uri.startsWith('file:') && (CONFIG_FILE_NAMES as readonly string[]).includes(path.basename(fileURLToPath(uri)))
  );
}

/** The mistakes in an open configuration file, as its editor holds it (the files it extends as on disk). */
export function configDiagnostics(fs: FileSystem, uri: string, text: TextLike, docsBase?: string): LspDiagnostic[] {
  const file = fileURLToPath(uri);
  const own = flatText(text);
  const config = readConfig(new OverlayFileSystem(fs, new Map([[file, own]])), file);
  const lines = new LineIndex(own);
  return config.diagnostics
    .filter((item) => item.file === file)
    .map((item) => lspDiagnosticAt(lines.rangeOf(item.span), item, docsBase));
}
