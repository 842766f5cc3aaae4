export interface PageOptions {
  scriptUri: string;
  styleUri: string;
  cspSource: string;
  nonce: string;
}

/** A webview page's head: everything bundled, a strict Content-Security-Policy, scripts only with the nonce. */
function head(options: PageOptions, title: string): string {
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
<title>${title}</title>
</head>`;
}

/** The graph preview page. */
export function previewHtml(options: PageOptions): string {
  return `${head(options, 'Skillgraph preview')}
<body>
<div id="toolbar" role="toolbar" aria-label="Graph preview">
  <input id="search" type="search" placeholder="Find a step…" aria-label="Find a step">
  <button id="zoom-in" title="Zoom in (+)">+</button>
  <button id="zoom-out" title="Zoom out (-)">−</button>
  <button id="fit" title="Fit to view (0)">Fit</button>
  <button id="direction" title="Layout direction">Auto</button>
  <button id="focus" aria-pressed="false" title="Focus: only the cursor's step and the steps it takes from or gives to">Focus</button>
  <button id="changes" aria-pressed="false" title="Mark what changed since the last commit (HEAD)">Changes</button>
  <button id="export-svg" title="Export as SVG">SVG</button>
  <button id="export-png" title="Export as PNG">PNG</button>
  <button id="context" title="What the model sees at the selected node (skill+)" hidden>Context</button>
  <span id="status" aria-live="polite"></span>
</div>
<div id="skill-problems" hidden></div>
<div id="changes-list" aria-label="Changes" hidden></div>
<div id="canvas"><svg id="graph" role="img" aria-label="Skill graph"></svg><svg id="overview" aria-hidden="true" hidden></svg></div>
<div id="tooltip" role="tooltip" hidden></div>
<script nonce="${options.nonce}" src="${options.scriptUri}"></script>
</body>
</html>`;
}

/** The library view: the workspace's skills and their edges, and the skill list each client gives the agent. */
export function libraryHtml(options: PageOptions): string {
  return `${head(options, 'Skill library')}
<body class="library">
<div id="toolbar" role="toolbar" aria-label="Skill library">
  <label>Folder <select id="folder" aria-label="Show the skills of a folder"></select></label>
  <input id="search" type="search" placeholder="Find a skill…" aria-label="Find a skill">
  <button id="zoom-in" title="Zoom in (+)">+</button>
  <button id="zoom-out" title="Zoom out (-)">−</button>
  <button id="fit" title="Fit to view (0)">Fit</button>
  <span id="status" aria-live="polite"></span>
</div>
<div id="panes">
  <div id="canvas"><svg id="graph" role="img" aria-label="Skills and the edges between them"></svg></div>
  <aside id="side">
    <section aria-labelledby="list-title">
      <h2 id="list-title">The agent's skill list</h2>
      <label>Client <select id="client" aria-label="Client"></select></label>
      <label class="check"><input type="checkbox" id="every"> every skill of the library, as if installed</label>
      <div id="list-summary" aria-live="polite"></div>
      <div id="list-bar" aria-hidden="true"><div id="list-fill"></div></div>
      <ol id="list"></ol>
    </section>
    <section aria-labelledby="problems-title">
      <h2 id="problems-title">Problems</h2>
      <ul id="problems"></ul>
    </section>
  </aside>
</div>
<div id="tooltip" role="tooltip" hidden></div>
<script nonce="${options.nonce}" src="${options.scriptUri}"></script>
</body>
</html>`;
}

/** The "what the model sees here" page of a skill+ package: a position and a State in, the per-turn context out. */
export function contextHtml(options: PageOptions): string {
  return `${head(options, 'What the model sees')}
<body>
<form id="position" aria-label="Position and State">
  <label>Node <select id="node"></select></label>
  <label>Event <select id="event">
    <option value="">(the seam before the node)</option>
    <option>stage_enter</option><option>post_tool</option><option>post_node</option><option>pre_tool</option><option>pre_answer</option>
  </select></label>
  <label>Round <input id="round" type="number" min="1" placeholder="1"></label>
  <label class="state">State (JSON; fields left out keep their defaults)
    <textarea id="state" rows="8" spellcheck="false"></textarea></label>
  <button id="apply" type="submit">Show</button>
  <span id="form-error" role="alert"></span>
</form>
<div id="summary" aria-live="polite"></div>
<div id="bar" aria-hidden="true"></div>
<main id="parts"></main>
<section id="gates" hidden><h2>Gates</h2><ul></ul></section>
<section id="left-out" hidden><h2>Left out</h2><ul></ul></section>
<script nonce="${options.nonce}" src="${options.scriptUri}"></script>
</body>
</html>`;
}
