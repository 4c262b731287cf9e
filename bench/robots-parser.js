// SPDX-License-Identifier: BSD-2-Clause
// The same job as `robots-audit check` with the npm package robots-parser:
// read robots.txt, judge every URL of a file, print one verdict per line.
// Usage: node robots-parser.js ROBOTS_FILE AGENT URLS_FILE
'use strict';
const fs = require('fs');
const robotsParser = require('robots-parser');
const [robotsFile, agent, urlsFile] = process.argv.slice(2);
const robots = robotsParser('https://example.com/robots.txt',
                            fs.readFileSync(robotsFile, 'utf8'));
const out = [];
let disallowed = 0;
for (const url of fs.readFileSync(urlsFile, 'utf8').split('\n')) {
  if (!url) continue;
  const ok = robots.isAllowed(url, agent);
  if (!ok) disallowed++;
  out.push((ok ? 'allowed\t' : 'disallowed\t') + url);
}
fs.writeFileSync(1, out.join('\n') + '\n');
process.exitCode = disallowed ? 1 : 0;
