/** The preview page: everything bundled, a strict Content-Security-Policy, scripts only with the nonce. */
export function previewHtml(options: { scriptUri: string; styleUri: string; cspSource: string; nonce: string }): string {
  const csp = [
    "default-src 'none'",
    `img-src ${options.cspSource} data: blob:`,
    `style-src ${options.cspSource} 'nonce-${options.nonce}'`,
    `font-src ${options.cspSource}`,
    `script-src 'nonce-${options.nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${options.styleUri}" nonce="${options.nonce}">
<title>Skillgraph preview</title>
</head>
<body>
<div id="toolbar" role="toolbar" aria-label="Graph preview">
  <input id="search" type="search" placeholder="Find a step…" aria-label="Find a step">
  <button id="zoom-in" title="Zoom in (+)">+</button>
  <button id="zoom-out" title="Zoom out (-)">−</button>
  <button id="fit" title="Fit to view (0)">Fit</button>
  <button id="direction" title="Switch between left-to-right and top-down">↔</button>
  <button id="export-svg" title="Export as SVG">SVG</button>
  <button id="export-png" title="Export as PNG">PNG</button>
  <span id="status" aria-live="polite"></span>
</div>
<div id="skill-problems" hidden></div>
<div id="canvas"><svg id="graph" role="img" aria-label="Skill graph"></svg></div>
<svg id="overview" aria-hidden="true" hidden></svg>
<div id="tooltip" role="tooltip" hidden></div>
<script nonce="${options.nonce}" src="${options.scriptUri}"></script>
</body>
</html>`;
}
