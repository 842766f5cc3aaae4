// Preloaded into a measured Node process: on exit it writes the process's
// peak resident memory (KiB) to $SKILLGRAPH_MAXRSS_FILE.
process.on('exit', () => {
  const file = process.env.SKILLGRAPH_MAXRSS_FILE;
  if (file) require('node:fs').writeFileSync(file, String(process.resourceUsage().maxRSS));
});
